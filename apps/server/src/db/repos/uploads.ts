import type { Queryable } from '../client';

/** Upload repository: every SQL statement of the files area. Rows are scoped by user_id. */
export interface UploadFileRecord {
  idx: number;
  name: string;
  size: number;
  role: 'data' | 'metadata';
  received: number;
  complete: boolean;
}

export interface UploadRecord {
  id: string;
  userId: string;
  sampleName: string;
  kind: 'matrix' | 'annotated' | 'celescope';
  formatHint: string;
  format: string | null;
  state: 'uploading' | 'parsing' | 'completed' | 'failed';
  progress: number;
  failureCode: string | null;
  failureParams: Record<string, string | number> | null;
  retryable: boolean;
  properties: Record<string, unknown> | null;
  usable: boolean;
  totalSize: number;
  datasetSize: number;
  attempts: number;
  createdAt: Date;
  completedAt: Date | null;
  files: UploadFileRecord[];
}

type Row = Record<string, unknown>;

const COLS = `id, user_id, sample_name, kind, format_hint, format, state, progress, failure_code, failure_params,
  retryable, properties, usable, total_size, dataset_size, attempts, created_at, completed_at`;

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

function toRecord(r: Row, files: UploadFileRecord[]): UploadRecord {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    sampleName: String(r.sample_name),
    kind: r.kind as UploadRecord['kind'],
    formatHint: String(r.format_hint),
    format: (r.format as string | null) ?? null,
    state: r.state as UploadRecord['state'],
    progress: Number(r.progress),
    failureCode: (r.failure_code as string | null) ?? null,
    failureParams: (json(r.failure_params) as UploadRecord['failureParams']) ?? null,
    retryable: Boolean(r.retryable),
    properties: (json(r.properties) as UploadRecord['properties']) ?? null,
    usable: Boolean(r.usable),
    totalSize: Number(r.total_size),
    datasetSize: Number(r.dataset_size),
    attempts: Number(r.attempts),
    createdAt: new Date(r.created_at as string),
    completedAt: r.completed_at ? new Date(r.completed_at as string) : null,
    files,
  };
}

function toFile(r: Row): UploadFileRecord {
  return {
    idx: Number(r.idx),
    name: String(r.name),
    size: Number(r.size),
    role: r.role as UploadFileRecord['role'],
    received: Number(r.received),
    complete: Boolean(r.complete),
  };
}

async function withFiles(q: Queryable, rows: Row[]): Promise<UploadRecord[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => String(r.id));
  const files = await q.query(
    'SELECT * FROM upload_files WHERE upload_id = ANY($1::text[]) ORDER BY upload_id, idx',
    [ids],
  );
  const byUpload = new Map<string, UploadFileRecord[]>();
  for (const f of files) {
    const list = byUpload.get(String(f.upload_id)) ?? [];
    list.push(toFile(f));
    byUpload.set(String(f.upload_id), list);
  }
  return rows.map((r) => toRecord(r, byUpload.get(String(r.id)) ?? []));
}

export interface NewUpload {
  userId: string;
  sampleName: string;
  kind: string;
  formatHint: string;
  files: { name: string; size: number; role: string }[];
}

/** Inserts an upload with its files; `null` when the user already has that sample name. */
export async function insertUpload(q: Queryable, u: NewUpload): Promise<string | null> {
  const total = u.files.reduce((s, f) => s + f.size, 0);
  const rows = await q.query<{ id: string }>(
    `INSERT INTO uploads (user_id, sample_name, kind, format_hint, total_size) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, sample_name) DO NOTHING RETURNING id`,
    [u.userId, u.sampleName, u.kind, u.formatHint, total],
  );
  const id = rows[0]?.id;
  if (!id) return null;
  for (const [i, f] of u.files.entries()) {
    await q.query('INSERT INTO upload_files (upload_id, idx, name, size, role) VALUES ($1, $2, $3, $4, $5)', [
      id,
      i,
      f.name,
      f.size,
      f.role,
    ]);
  }
  return id;
}

/** One upload of one user (undefined for another user's id: callers answer 404). */
export async function findUpload(
  q: Queryable,
  id: string,
  userId?: string,
): Promise<UploadRecord | undefined> {
  const rows = userId
    ? await q.query(`SELECT ${COLS} FROM uploads WHERE id = $1 AND user_id = $2`, [id, userId])
    : await q.query(`SELECT ${COLS} FROM uploads WHERE id = $1`, [id]);
  return (await withFiles(q, rows))[0];
}

export interface ListOptions {
  search?: string;
  sortBy: 'fileName' | 'uploadedOn';
  order: 'asc' | 'desc';
  pageNum: number;
  pageSize: number;
  state?: string;
}

export async function listUploads(
  q: Queryable,
  userId: string,
  o: ListOptions,
): Promise<{ total: number; rows: UploadRecord[] }> {
  const where = ['user_id = $1'];
  const params: unknown[] = [userId];
  if (o.search) {
    params.push(`%${o.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `(sample_name ILIKE $${params.length} OR EXISTS (SELECT 1 FROM upload_files f WHERE f.upload_id = uploads.id AND f.name ILIKE $${params.length}))`,
    );
  }
  if (o.state) {
    params.push(o.state);
    where.push(`state = $${params.length}`);
  }
  const order = o.sortBy === 'fileName' ? 'lower(sample_name)' : 'created_at';
  const dir = o.order === 'asc' ? 'ASC' : 'DESC';
  const countRows = await q.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM uploads WHERE ${where.join(' AND ')}`,
    params,
  );
  params.push(o.pageSize, (o.pageNum - 1) * o.pageSize);
  const rows = await q.query(
    `SELECT ${COLS} FROM uploads WHERE ${where.join(' AND ')} ORDER BY ${order} ${dir}, id ${dir}
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { total: Number(countRows[0]?.n ?? 0), rows: await withFiles(q, rows) };
}

export async function sampleNameTaken(
  q: Queryable,
  userId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM uploads WHERE user_id = $1 AND sample_name = $2 AND id <> $3', [
    userId,
    name,
    exceptId ?? '',
  ]);
  return rows.length > 0;
}

/** Renames; false when the name is taken (unique violation avoided by the check in one statement). */
export async function renameUpload(q: Queryable, id: string, userId: string, name: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE uploads SET sample_name = $3, updated_at = now() WHERE id = $1 AND user_id = $2
     AND NOT EXISTS (SELECT 1 FROM uploads o WHERE o.user_id = $2 AND o.sample_name = $3 AND o.id <> $1) RETURNING id`,
    [id, userId, name],
  );
  return rows.length > 0;
}

export async function deleteUpload(q: Queryable, id: string, userId: string): Promise<boolean> {
  return (
    (await q.query('DELETE FROM uploads WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId])).length >
    0
  );
}

export async function setFileProgress(
  q: Queryable,
  uploadId: string,
  idx: number,
  received: number,
  complete: boolean,
): Promise<void> {
  await q.query(
    'UPDATE upload_files SET received = GREATEST(received, $3), complete = complete OR $4 WHERE upload_id = $1 AND idx = $2',
    [uploadId, idx, received, complete],
  );
  const files = await q.query<{ size: string | number; received: string | number }>(
    'SELECT size, received FROM upload_files WHERE upload_id = $1',
    [uploadId],
  );
  const size = files.reduce((s, f) => s + Number(f.size), 0);
  const got = files.reduce((s, f) => s + Number(f.received), 0);
  await q.query(
    `UPDATE uploads SET progress = $2, updated_at = now() WHERE id = $1 AND state = 'uploading'`,
    [uploadId, size ? got / size : 1],
  );
}

/** uploading → parsing once every file is complete (exactly one caller wins). */
export async function startParsingIfComplete(q: Queryable, uploadId: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE uploads SET state = 'parsing', progress = 0, updated_at = now()
     WHERE id = $1 AND state = 'uploading' AND NOT EXISTS (SELECT 1 FROM upload_files WHERE upload_id = $1 AND NOT complete)
     RETURNING id`,
    [uploadId],
  );
  return rows.length > 0;
}

/** failed (retryable) → parsing again, for the retry button. */
export async function restartParsing(q: Queryable, id: string, userId: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE uploads SET state = 'parsing', progress = 0, failure_code = NULL, failure_params = NULL, retryable = false, attempts = 0, updated_at = now()
     WHERE id = $1 AND user_id = $2 AND (state = 'failed' AND retryable) RETURNING id`,
    [id, userId],
  );
  return rows.length > 0;
}

export async function setParseProgress(q: Queryable, id: string, progress: number): Promise<void> {
  await q.query(`UPDATE uploads SET progress = $2, updated_at = now() WHERE id = $1 AND state = 'parsing'`, [
    id,
    progress,
  ]);
}

export async function beginAttempt(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE uploads SET attempts = attempts + 1, updated_at = now() WHERE id = $1', [id]);
}

export async function markCompleted(
  q: Queryable,
  id: string,
  r: { format: string; properties: unknown; usable: boolean; datasetSize: number },
): Promise<void> {
  await q.query(
    `UPDATE uploads SET state = 'completed', progress = 1, format = $2, properties = $3::jsonb, usable = $4, dataset_size = $5,
       failure_code = NULL, failure_params = NULL, retryable = false, completed_at = now(), updated_at = now() WHERE id = $1`,
    [id, r.format, JSON.stringify(r.properties), r.usable, r.datasetSize],
  );
}

export async function markFailed(
  q: Queryable,
  id: string,
  code: string,
  params: Record<string, string | number>,
  retryable: boolean,
): Promise<void> {
  await q.query(
    `UPDATE uploads SET state = 'failed', failure_code = $2, failure_params = $3::jsonb, retryable = $4, updated_at = now() WHERE id = $1`,
    [id, code, JSON.stringify(params), retryable],
  );
}

/** Bytes a user's uploads occupy: originals plus the canonical stored datasets. */
export async function uploadBytesOfUser(q: Queryable, userId: string): Promise<number> {
  const rows = await q.query<{ n: string | number | null }>(
    'SELECT COALESCE(sum(total_size + dataset_size), 0) AS n FROM uploads WHERE user_id = $1',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Completed, usable uploads of a user (what the analysis wizard may select). */
export async function listCompletedUsable(q: Queryable, userId: string): Promise<UploadRecord[]> {
  const rows = await q.query(
    `SELECT ${COLS} FROM uploads WHERE user_id = $1 AND state = 'completed' AND usable ORDER BY created_at DESC`,
    [userId],
  );
  return withFiles(q, rows);
}

/** Uploads left in 'parsing' (e.g. by a crash) — re-enqueued at start. */
export async function listParsing(q: Queryable): Promise<string[]> {
  return (await q.query<{ id: string }>(`SELECT id FROM uploads WHERE state = 'parsing'`)).map((r) => r.id);
}
