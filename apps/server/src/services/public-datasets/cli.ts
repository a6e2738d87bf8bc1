import { readFile, stat } from 'node:fs/promises';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { readDataset } from '@cellcloud/formats';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Db } from '../../db/client';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import type { PublicIngestRow } from '../../db/repos/public-ingests';
import type { Config } from '../../config';
import { JobQueue } from '../../queue/job-queue';
import type { Storage } from '../../storage/storage';
import { PUBLIC_STREAMED_MIN_CELLS, standardizePublicH5adFile } from './ingest-streamed';
import { standardizePublicCounts } from './ingest-counts';
import { queuePublicIngest, waitPublicIngest } from './queue-ingest';
import { discardStaged, ingestResult } from './store';

/** Reads a metadata sheet: JSON (`.json`) or YAML (anything else). */
export async function readMetaSheet(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return file.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

export interface IngestCliDeps {
  db: Db;
  storage: Storage;
  config: Config;
  /** A started queue whose workers run `public.ingest` (a server's); else the tool starts its own. */
  queue?: JobQueue;
  /**
   * Works `public.ingest` on the tool's own queue (one job at a time): the admin tool passes it
   * (src/cli/admin.ts, with the job handler of src/jobs); services never import job handlers.
   */
  workPublicIngest?: PublicIngestWorker;
}

/** Runs the `public.ingest` jobs of `queue` in this process. */
export type PublicIngestWorker = (
  queue: JobQueue,
  deps: Pick<IngestCliDeps, 'db' | 'storage' | 'config'>,
) => Promise<void>;

export interface IngestCliOptions {
  /** Wait for the job (default), else print its id and return once it is queued. */
  wait?: boolean;
  /** Progress lines while waiting. */
  log?: (line: string) => void;
  /**
   * Cells from which a CELLxGENE h5ad is read streamed (ingest-streamed.ts); default the config's
   * analysis threshold when it has one (CELLCLOUD_STREAMED_MIN_CELLS), else PUBLIC_STREAMED_MIN_CELLS.
   */
  streamedMinCells?: number;
}

/**
 * `admin ingest-public` / `admin withdraw-public` (administrators run the admin tool). The file is
 * validated and standardized here — a schema-violating file throws PublicIngestError naming every
 * rule and nothing is stored — then the `public.ingest` job is queued (queue-ingest.ts). Waiting,
 * the tool also works that queue itself (one job at a time), so the job runs whether or not a
 * server's worker is up: with PostgreSQL a running server's worker may take it first; with the
 * embedded database the server is stopped (the tool refuses a database a server holds), so the
 * tool runs it. `--no-wait` only queues it: the next worker to start runs it.
 */
export async function ingestPublicCli(
  deps: IngestCliDeps,
  command: string,
  target: string,
  meta?: string,
  opts: IngestCliOptions = {},
): Promise<string> {
  const { db, storage } = deps;
  if (command === 'withdraw-public') {
    if (!(await publicDatasetsRepo.withdraw(db, target)))
      throw new Error(`no visible public dataset "${target}"`);
    return `public dataset ${target} withdrawn (hidden; analyses that used it keep their results)`;
  }
  const sheet = (await readMetaSheet(meta!)) as Record<string, unknown>;
  // (b) counts + metadata sheet: a folder (10x), or a sheet naming a cells table or columns
  const counts = (await stat(target)).isDirectory() || 'cells' in sheet || 'columns' in sheet;
  const std = counts
    ? await standardizeCountsFile(target, meta!, sheet)
    : await standardizePublicH5adFile(
        target,
        path.basename(target),
        sheet,
        opts.streamedMinCells ?? deps.config.streamedMinCells ?? PUBLIC_STREAMED_MIN_CELLS,
      );
  const queue = deps.queue ?? new JobQueue(deps.config, db);
  const own = !deps.queue;
  if (own) await queue.start();
  try {
    // a streamed file's scratch counts.h5ad is uploaded (and removed) by the staging; removed here
    // when the queueing fails before it
    const row = await queuePublicIngest({ db, storage, queue }, std).finally(() => discardStaged(std.d));
    const what = `public dataset ${row.dataset_id} v${row.version}`;
    if (opts.wait === false)
      return `queued the ingest of ${what}: ingest ${row.id} (a worker runs it; the catalogue keeps the current version until it completes)`;
    if (own) {
      if (!deps.workPublicIngest)
        throw new Error('no worker for public.ingest: start a worker or pass a queue');
      await deps.workPublicIngest(queue, deps);
    }
    const done = await waitPublicIngest(db, row.id, (r) =>
      opts.log?.(`${what}: ${r.status}${r.step ? ` — ${r.step} ${Math.round(r.progress * 100)} %` : ''}`),
    );
    if (done.status === 'error')
      throw new Error(
        `the ingest of ${what} failed: ${done.message}; the catalogue keeps the previous version`,
      );
    return ingestDoneText(row);
  } finally {
    if (own) await queue.stop();
  }
}

/** What the tool prints once an ingest has completed. */
export function ingestDoneText(row: PublicIngestRow): string {
  const r = ingestResult(row.catalogue, row.version, row.warnings);
  return [
    `ingested public dataset ${r.id} v${r.version}: ${r.cells} cells, ${r.genes} genes; levels ${r.annotationLevels.join(', ')}; standard analysis ready for the explorer`,
    ...r.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

/** Ingest (b): the counts file or folder read like an upload, the cells table relative to the sheet. */
async function standardizeCountsFile(target: string, metaFile: string, sheet: Record<string, unknown>) {
  const d = await readDataset(await pathBundle(target));
  const cells =
    typeof sheet.cells === 'string' ? path.resolve(path.dirname(metaFile), sheet.cells) : undefined;
  const table = cells
    ? { name: path.basename(cells), bytes: new Uint8Array(await readFile(cells)) }
    : undefined;
  return standardizePublicCounts(d, sheet, table);
}
