import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import {
  publicIngestBody,
  type PublicIngestCheck,
  type PublicIngestProblem,
  type PublicIngestStatus,
} from '@cellcloud/contracts/admin-public-ingest';
import { publicDatasetMeta, type SchemaViolation } from '@cellcloud/contracts/public-datasets';
import type { Locale } from '@cellcloud/contracts';
import { readDataset } from '@cellcloud/formats';
import { filesBundle } from '@cellcloud/formats/node-sources';
import type { Db } from '../../db/client';
import { publicIngestsRepo, type PublicIngestRow } from '../../db/repos/public-ingests';
import { findUpload, type UploadRecord } from '../../db/repos/uploads';
import { AppError } from '../../errors';
import { translate } from '../../i18n/translate';
import type { JobQueue } from '../../queue/job-queue';
import { rawFileKey } from '../../storage/keys';
import type { Storage } from '../../storage/storage';
import { PublicIngestError, standardizePublicH5ad } from './ingest';
import { standardizePublicCounts } from './ingest-counts';
import { IngestBusyError, queuePublicIngest } from './queue-ingest';
import type { Standardized } from './store';
import './admin-ingest-messages';

export interface AdminIngestDeps {
  db: Db;
  storage: Storage;
  /** The server's started queue (absent when the server runs no jobs: then nothing can be queued). */
  queue?: JobQueue;
}

/** A sheet-level problem found before the files are read. */
interface Raw {
  rule: string;
  field: string | null;
  key: string;
  params?: Record<string, unknown>;
}

/** The sheet text as an object: YAML (JSON is YAML too), or the problems that stop reading it. */
function readSheet(text: string): { sheet?: Record<string, unknown>; problems: Raw[] } {
  let value: unknown;
  try {
    value = parseYaml(text, { prettyErrors: true });
  } catch (e) {
    const first = ((e as Error).message || '').split('\n')[0]!.slice(0, 200);
    return {
      problems: [{ rule: 'sheet.syntax', field: null, key: 'pi.sheet.syntax', params: { detail: first } }],
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { problems: [{ rule: 'sheet.object', field: null, key: 'pi.sheet.object' }] };
  return { sheet: value as Record<string, unknown>, problems: [] };
}

/** The CLI's sheet schema (contracts publicDatasetMeta) issue by issue, each naming the sheet field. */
function sheetIssues(sheet: Record<string, unknown>): Raw[] {
  const r = publicDatasetMeta.safeParse(sheet);
  if (r.success) return [];
  return r.error.issues.flatMap((i): Raw[] => {
    const field = i.path.join('.');
    const rule = `meta.${field || 'sheet'}`;
    if (i.code === 'unrecognized_keys')
      return i.keys.map((k) => ({
        rule: `meta.${field ? `${field}.` : ''}${k}`,
        field: field ? `${field}.${k}` : k,
        key: 'pi.field.unknown',
      }));
    const input = field.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], sheet);
    if (i.code === 'invalid_type' && input === undefined) return [{ rule, field, key: 'pi.field.required' }];
    if (i.code === 'invalid_type') return [{ rule, field, key: `pi.field.type.${i.expected}`, params: {} }];
    if (i.code === 'invalid_format')
      return [{ rule, field, key: field === 'id' ? 'pi.field.id' : `pi.field.format` }];
    if (i.code === 'too_small' && Number(i.minimum) <= 1 && i.origin === 'string')
      return [{ rule, field, key: 'pi.field.empty' }];
    if (i.code === 'too_big') return [{ rule, field, key: 'pi.field.tooBig', params: { max: i.maximum } }];
    if (i.code === 'too_small')
      return [{ rule, field, key: 'pi.field.tooSmall', params: { min: i.minimum } }];
    return [{ rule, field, key: 'pi.field.invalid' }];
  });
}

/**
 * The sheet with every field the schema refused left out (and placeholders for `id` and `title`),
 * so the file and the remaining sheet rules are still checked: every problem is answered at once.
 */
function repaired(sheet: Record<string, unknown>, issues: Raw[]): Record<string, unknown> {
  const out = { ...sheet };
  for (const i of issues) if (i.field) delete out[i.field.split('.')[0]!];
  out.id ??= 'sheet';
  out.title ??= 'sheet';
  return out;
}

/** Which sheet field a rule of the file checks (ingest.ts / ingest-counts.ts) is about. */
function fieldOf(rule: string, sheet: Record<string, unknown>): string | null {
  const m = /^meta\.(\w+)\.(required|supported)$/.exec(rule);
  if (m) return m[1]!;
  if (rule === 'cells.table.required') return 'columns';
  const col = /^cells\.column\.(.+)\.missing$/.exec(rule)?.[1];
  if (col) {
    const columns = (sheet.columns ?? {}) as Record<string, unknown>;
    const level = Object.keys(columns).find((k) => columns[k] === col);
    return level ? `columns.${level}` : 'columns';
  }
  if (rule === 'cells.barcodes.cover') return 'cells';
  if (rule === 'organism.required') return 'species';
  return null;
}

/** A violation of the CLI's checks (PublicIngestError) as a translated problem. */
function violationProblem(v: SchemaViolation, sheet: Record<string, unknown>): Raw {
  const field = fieldOf(v.rule, sheet);
  const col = /^cells\.column\.(.+)\.missing$/.exec(v.rule)?.[1];
  if (col) return { rule: v.rule, field, key: 'pi.cells.column', params: { column: col } };
  if (v.rule === 'obs.donor_id.required') return { rule: v.rule, field, key: 'pi.obs.donor' };
  const obsCol = /^obs\.(.+)\.required$/.exec(v.rule)?.[1];
  if (obsCol) return { rule: v.rule, field, key: 'pi.obs.required', params: { column: obsCol } };
  const known: Record<string, string> = {
    'meta.species.required': 'pi.field.required',
    'meta.tissue.required': 'pi.field.required',
    'meta.disease.required': 'pi.field.required',
    'meta.assay.required': 'pi.field.required',
    'meta.species.supported': 'pi.species.supported',
    'cells.table.required': 'pi.cells.required',
    'cells.barcodes.cover': 'pi.cells.cover',
    'counts.integer': 'pi.counts.integer',
    'X.nonEmpty': 'pi.counts.empty',
    'organism.required': 'pi.organism.required',
    'organism.single': 'pi.organism.single',
    'var.index.ensembl': 'pi.var.ensembl',
  };
  const key = known[v.rule];
  if (key) return { rule: v.rule, field, key, params: { ...v.params } };
  return { rule: v.rule, field, key: 'pi.file.rule', params: { detail: v.message } };
}

const t = (locale: Locale, p: Raw): PublicIngestProblem => ({
  rule: p.rule,
  field: p.field,
  message: translate(locale, p.key, { field: p.field ?? '', rule: p.rule, ...p.params }),
});

export function statusOf(r: PublicIngestRow): PublicIngestStatus {
  return {
    ingestId: r.id,
    datasetId: r.dataset_id,
    version: r.version,
    status: r.status,
    step: r.step,
    progress: r.progress,
    message: r.message,
  };
}

/** The calling administrator's upload, every file received; else a translated refusal. */
async function adminUpload(db: Db, userId: string, id: string): Promise<UploadRecord> {
  const u = await findUpload(db, id, userId);
  if (!u) throw new AppError('NOT_FOUND');
  if (!u.files.every((f) => f.complete)) throw new AppError('VALIDATION_FAILED', {}, 'pi.upload.incomplete');
  return u;
}

/** Reads the upload's files (a temporary folder under their own names) and runs the CLI's standardization. */
async function standardize(
  storage: Storage,
  u: UploadRecord,
  sheet: Record<string, unknown>,
  extra: Raw[],
): Promise<Standardized> {
  const data = u.files.filter((f) => f.role === 'data');
  const counts =
    'cells' in sheet || 'columns' in sheet || data.length !== 1 || !/\.h5ad$/i.test(data[0]!.name);
  if (!counts) {
    const f = data[0]!;
    return standardizePublicH5ad(await storage.getBytes(rawFileKey(u.id, f.idx)), f.name, sheet);
  }
  let table: { name: string; bytes: Uint8Array } | undefined;
  if (typeof sheet.cells === 'string') {
    const want = path.basename(sheet.cells);
    const f =
      u.files.find((x) => x.name === want && x.role === 'metadata') ?? u.files.find((x) => x.name === want);
    if (f) table = { name: f.name, bytes: await storage.getBytes(rawFileKey(u.id, f.idx)) };
    else
      extra.push({
        rule: 'cells.file.missing',
        field: 'cells',
        key: 'pi.cells.file',
        params: { name: want },
      });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-public-'));
  try {
    const paths: string[] = [];
    for (const f of data) {
      const p = path.join(dir, path.basename(f.name));
      await writeFile(p, await storage.getBytes(rawFileKey(u.id, f.idx)));
      paths.push(p);
    }
    const d = await readDataset(await filesBundle(u.sampleName, paths));
    return standardizePublicCounts(d, table ? sheet : { ...sheet, cells: undefined }, table);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Checks an ingest from the admin console (issue 31) with the admin tool's own rules (the sheet
 * schema, then the CELLxGENE or counts-sheet rules of ingest.ts / ingest-counts.ts), every problem
 * at once and translated; when valid and not `validateOnly`, queues the same `public.ingest` job.
 */
export async function adminPublicIngest(
  deps: AdminIngestDeps,
  userId: string,
  input: z.input<typeof publicIngestBody>,
  locale: Locale,
): Promise<PublicIngestCheck> {
  const body = publicIngestBody.parse(input);
  const upload = await adminUpload(deps.db, userId, body.uploadId);
  const answer = (problems: Raw[], std?: Standardized, ingest: PublicIngestStatus | null = null) => ({
    ok: problems.length === 0,
    problems: problems.map((p) => t(locale, p)),
    datasetId: std?.meta.id ?? null,
    cells: std?.d.cells.barcodes.length ?? null,
    genes: std?.d.genes.ids.length ?? null,
    warnings: std?.s.warnings ?? [],
    ingest,
  });
  const read = readSheet(body.sheet);
  if (!read.sheet) return answer(read.problems);
  const issues = sheetIssues(read.sheet);
  const sheet = issues.length ? repaired(read.sheet, issues) : read.sheet;
  let std: Standardized | undefined;
  const problems = [...issues];
  try {
    std = await standardize(deps.storage, upload, sheet, problems);
  } catch (e) {
    if (!(e instanceof PublicIngestError)) {
      const detail = ((e as Error).message || '').split('\n')[0]!.slice(0, 300);
      problems.push({ rule: 'file.read', field: null, key: 'pi.file.read', params: { detail } });
    } else {
      // a named but missing cells table is already reported (cells.file.missing)
      const missing = problems.some((p) => p.rule === 'cells.file.missing');
      // a field the schema refused was left out of the sheet: its "required" is the same problem
      const refused = new Set(issues.map((i) => i.field?.split('.')[0]));
      const found = e.violations
        .filter((v) => !(missing && v.rule === 'cells.table.required'))
        .map((v) => violationProblem(v, sheet))
        .filter((p) => !p.field || !refused.has(p.field.split('.')[0]));
      problems.push(...found);
    }
  }
  if (problems.length || !std) return answer(problems);
  if (body.validateOnly) return answer([], std);
  if (!deps.queue) throw new AppError('MAINTENANCE', {}, 'pi.noWorker');
  try {
    const row = await queuePublicIngest({ db: deps.db, storage: deps.storage, queue: deps.queue }, std);
    return answer([], std, statusOf(row));
  } catch (e) {
    if (!(e instanceof IngestBusyError)) throw e;
    const busy = await publicIngestsRepo.active(deps.db, std.meta.id);
    return answer([
      {
        rule: 'ingest.busy',
        field: 'id',
        key: 'pi.busy',
        params: { id: std.meta.id, status: busy?.status ?? 'queued' },
      },
    ]);
  }
}

/** The state and step of an ingest, for the console's progress view. */
export async function adminPublicIngestStatus(db: Db, id: string): Promise<PublicIngestStatus> {
  const r = await publicIngestsRepo.get(db, id);
  if (!r) throw new AppError('NOT_FOUND');
  return statusOf(r);
}
