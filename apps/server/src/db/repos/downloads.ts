import type { DownloadKind } from '@cellcloud/contracts/downloads';
import type { Queryable } from '../client';

/** SQL of `download_requests` (contracts/downloads.ts) and `server_secrets`. */
export interface DownloadRow {
  id: string;
  user_id: string;
  job_id: string;
  kind: DownloadKind;
  /** Language of the figures' labels (the requester's when asking). */
  lang: 'en-US' | 'zh-CN';
  status: 'pending' | 'approved' | 'declined' | 'expired';
  export_state: 'waiting' | 'running' | 'ready' | 'failed';
  file_key: string | null;
  file_name: string;
  file_size: string | number | null;
  valid_days: number;
  decline_reason: string | null;
  decided_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  job_name: string;
  username: string;
}

const SELECT = `SELECT d.*, j.job_name, u.username FROM download_requests d
  JOIN analysis_jobs j ON j.id = d.job_id JOIN users u ON u.id = d.user_id`;

export const downloadsRepo = {
  async insert(
    q: Queryable,
    r: {
      id: string;
      userId: string;
      jobId: string;
      kind: string;
      status: string;
      fileName: string;
      validDays: number;
      lang: string;
    },
  ): Promise<void> {
    await q.query(
      `INSERT INTO download_requests (id, user_id, job_id, kind, status, file_name, valid_days, lang, decided_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8, CASE WHEN $5 = 'approved' THEN now() END)`,
      [r.id, r.userId, r.jobId, r.kind, r.status, r.fileName, r.validDays, r.lang],
    );
  },
  async get(q: Queryable, id: string): Promise<DownloadRow | undefined> {
    return (await q.query<DownloadRow>(`${SELECT} WHERE d.id = $1`, [id]))[0];
  },
  async listOfUser(q: Queryable, userId: string): Promise<DownloadRow[]> {
    return q.query<DownloadRow>(`${SELECT} WHERE d.user_id = $1 ORDER BY d.created_at DESC`, [userId]);
  },
  async listAll(q: Queryable, pendingOnly: boolean): Promise<DownloadRow[]> {
    return q.query<DownloadRow>(
      `${SELECT} ${pendingOnly ? "WHERE d.status = 'pending'" : ''} ORDER BY d.created_at DESC LIMIT 500`,
    );
  },
  /** pending → approved / declined; false when the request was not pending any more. */
  async decide(
    q: Queryable,
    id: string,
    status: 'approved' | 'declined',
    by: string,
    reason: string | null,
  ): Promise<boolean> {
    const rows = await q.query(
      `UPDATE download_requests SET status = $2, decided_by = $3, decided_at = now(), decline_reason = $4
       WHERE id = $1 AND status = 'pending' RETURNING id`,
      [id, status, by, reason],
    );
    return rows.length > 0;
  },
  async setExport(q: Queryable, id: string, state: 'running' | 'failed'): Promise<void> {
    await q.query('UPDATE download_requests SET export_state = $2 WHERE id = $1', [id, state]);
  },
  /** The export is written: the validity starts now. */
  async ready(q: Queryable, id: string, fileKey: string, size: number): Promise<void> {
    await q.query(
      `UPDATE download_requests SET export_state = 'ready', file_key = $2, file_size = $3,
         expires_at = now() + make_interval(days => valid_days) WHERE id = $1`,
      [id, fileKey, size],
    );
  },
  /** Approved requests whose validity ended by `now`. */
  async due(q: Queryable, now: Date): Promise<DownloadRow[]> {
    return q.query<DownloadRow>(
      `${SELECT} WHERE d.status = 'approved' AND d.expires_at IS NOT NULL AND d.expires_at <= $1`,
      [now],
    );
  },
  async expire(q: Queryable, id: string): Promise<boolean> {
    const rows = await q.query(
      `UPDATE download_requests SET status = 'expired', file_key = NULL WHERE id = $1 AND status = 'approved' RETURNING id`,
      [id],
    );
    return rows.length > 0;
  },
  /** Bytes of converted files a user holds until they expire (counted in the quota). */
  async liveBytesOfUser(q: Queryable, userId: string): Promise<number> {
    const [r] = await q.query<{ n: string | number | null }>(
      `SELECT COALESCE(SUM(file_size), 0) AS n FROM download_requests WHERE user_id = $1 AND status = 'approved' AND file_key IS NOT NULL`,
      [userId],
    );
    return Number(r?.n ?? 0);
  },
  async secret(q: Queryable, name: string, fresh: string): Promise<string> {
    await q.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      fresh,
    ]);
    const [r] = await q.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
    return r!.value;
  },
};
