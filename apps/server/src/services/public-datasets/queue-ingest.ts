import type { Db } from '../../db/client';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import { publicIngestsRepo, type PublicIngestRow } from '../../db/repos/public-ingests';
import type { JobQueue } from '../../queue/job-queue';
import type { Storage } from '../../storage/storage';
import { catalogueEntry, stagePublicCounts, versionPrefix, type Standardized } from './store';

/** Another ingest of the same dataset is queued or running. */
export class IngestBusyError extends Error {}

/**
 * Queues the ingest of a validated, standardized public dataset (issue 20): records the
 * `public_ingests` row (at most one unfinished per dataset — it reserves the next version), stages
 * the counts under `public/<id>/v<version>/` (not visible: the catalogue still points at the
 * current version) and sends the `public.ingest` job, which runs the standard analysis there and
 * swaps the catalogue row.
 */
export async function queuePublicIngest(
  deps: { db: Db; storage: Storage; queue: JobQueue },
  std: Standardized,
): Promise<PublicIngestRow> {
  const entry = catalogueEntry(std);
  const version = await publicDatasetsRepo.nextVersion(deps.db, entry.id);
  const prefix = versionPrefix(entry.id, version);
  const row = await publicIngestsRepo.create(deps.db, {
    datasetId: entry.id,
    version,
    storagePrefix: prefix,
    catalogue: entry,
    warnings: std.s.warnings,
  });
  if (!row) {
    const busy = await publicIngestsRepo.active(deps.db, entry.id);
    throw new IngestBusyError(
      `an ingest of public dataset "${entry.id}" is already ${busy?.status ?? 'queued'} (ingest ${busy?.id ?? '?'}); wait for it to finish`,
    );
  }
  try {
    await stagePublicCounts(deps.storage, prefix, std);
    const bossId = await deps.queue.send(
      'public.ingest',
      { ingestId: row.id },
      { singletonKey: `public:${entry.id}` },
    );
    await publicIngestsRepo.setBossJob(deps.db, row.id, bossId);
  } catch (e) {
    await publicIngestsRepo.finish(deps.db, row.id, { error: (e as Error).message, final: true });
    await deps.storage.delete(prefix);
    throw e;
  }
  return row;
}

/**
 * Waits for an ingest to finish, reporting each new step; resolves with the finished row (status
 * `completed` or `error`).
 */
export async function waitPublicIngest(
  db: Db,
  id: string,
  onStep: (r: PublicIngestRow) => void,
  pollMs = 500,
): Promise<PublicIngestRow> {
  let seen = '';
  for (;;) {
    const r = await publicIngestsRepo.get(db, id);
    if (!r) throw new Error(`ingest ${id} disappeared`);
    const key = `${r.status}:${r.step ?? ''}`;
    if (key !== seen) {
      seen = key;
      onStep(r);
    }
    if (r.status === 'completed' || r.status === 'error') return r;
    await new Promise((res) => setTimeout(res, pollMs));
  }
}
