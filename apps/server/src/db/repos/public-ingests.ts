import type { Queryable } from '../client';
import type { PublicDatasetInput } from './public-datasets';

/** The standardized catalogue entry an ingest publishes (the storage prefix is the ingest's own). */
export type PublicCatalogueInput = Omit<PublicDatasetInput, 'storagePrefix'>;

/** A row of `public_ingests` (migration 0650): one queued curation ingest of a public dataset. */
export interface PublicIngestRow {
  id: string;
  dataset_id: string;
  version: number;
  storage_prefix: string;
  status: 'queued' | 'running' | 'completed' | 'error';
  progress: number;
  step: string | null;
  message: string | null;
  catalogue: PublicCatalogueInput;
  warnings: string[];
  boss_job_id: string | null;
  attempt: number;
  submitted_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = `id, dataset_id, version, storage_prefix, status, progress, step, message, catalogue, warnings,
  boss_job_id, attempt, submitted_at, started_at, finished_at`;

/** A unique-index violation: another ingest of the dataset is queued or running. */
const isActiveConflict = (e: unknown) => (e as { code?: string }).code === '23505';

export const publicIngestsRepo = {
  /** Records a queued ingest; undefined when another one of the same dataset is unfinished. */
  async create(
    q: Queryable,
    r: {
      datasetId: string;
      version: number;
      storagePrefix: string;
      catalogue: PublicCatalogueInput;
      warnings: string[];
    },
  ): Promise<PublicIngestRow | undefined> {
    try {
      return (
        await q.query<PublicIngestRow>(
          `INSERT INTO public_ingests (dataset_id, version, storage_prefix, status, catalogue, warnings)
           VALUES ($1, $2, $3, 'queued', $4, $5) RETURNING ${COLUMNS}`,
          [r.datasetId, r.version, r.storagePrefix, JSON.stringify(r.catalogue), JSON.stringify(r.warnings)],
        )
      )[0];
    } catch (e) {
      if (isActiveConflict(e)) return undefined;
      throw e;
    }
  },

  /** The unfinished ingest of a dataset, if any. */
  async active(q: Queryable, datasetId: string): Promise<PublicIngestRow | undefined> {
    return (
      await q.query<PublicIngestRow>(
        `SELECT ${COLUMNS} FROM public_ingests WHERE dataset_id = $1 AND status IN ('queued', 'running')`,
        [datasetId],
      )
    )[0];
  },

  async get(q: Queryable, id: string): Promise<PublicIngestRow | undefined> {
    return (await q.query<PublicIngestRow>(`SELECT ${COLUMNS} FROM public_ingests WHERE id = $1`, [id]))[0];
  },

  async setBossJob(q: Queryable, id: string, bossId: string): Promise<void> {
    await q.query('UPDATE public_ingests SET boss_job_id = $2 WHERE id = $1', [id, bossId]);
  },

  /** Claims the row for this attempt; undefined when it is already finished. */
  async claim(q: Queryable, id: string, attempt: number): Promise<PublicIngestRow | undefined> {
    return (
      await q.query<PublicIngestRow>(
        `UPDATE public_ingests SET status = 'running', attempt = $2, started_at = coalesce(started_at, now()),
           message = NULL WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
        [id, attempt],
      )
    )[0];
  },

  async progress(q: Queryable, id: string, fraction: number, step: string): Promise<void> {
    await q.query(`UPDATE public_ingests SET progress = $2, step = $3 WHERE id = $1 AND status = 'running'`, [
      id,
      fraction,
      step,
    ]);
  },

  async finish(q: Queryable, id: string, outcome: { error?: string; final?: boolean }): Promise<void> {
    if (outcome.error && !outcome.final) {
      await q.query(`UPDATE public_ingests SET status = 'queued', message = $2 WHERE id = $1`, [
        id,
        outcome.error.slice(0, 1000),
      ]);
      return;
    }
    await q.query(
      `UPDATE public_ingests SET status = $2, message = $3, progress = CASE WHEN $2 = 'completed' THEN 1 ELSE progress END,
         finished_at = now() WHERE id = $1`,
      [id, outcome.error ? 'error' : 'completed', outcome.error?.slice(0, 1000) ?? null],
    );
  },

  /** Ingests in one of `statuses`, newest first (admin jobs overview). */
  async byStatus(q: Queryable, statuses: string[], limit = 200): Promise<PublicIngestRow[]> {
    return q.query<PublicIngestRow>(
      `SELECT ${COLUMNS} FROM public_ingests WHERE status = ANY($1::text[]) ORDER BY submitted_at DESC LIMIT $2`,
      [statuses, limit],
    );
  },

  /** Recent ingests, newest first. */
  async recent(q: Queryable, limit = 50): Promise<PublicIngestRow[]> {
    return q.query<PublicIngestRow>(
      `SELECT ${COLUMNS} FROM public_ingests ORDER BY submitted_at DESC LIMIT $1`,
      [limit],
    );
  },

  /**
   * Where the explorer artifacts of a visible public dataset live: its storage prefix, when the
   * standard analysis of its current version has completed (analysis_job_id = the ingest's id).
   */
  async explorable(
    q: Queryable,
    datasetId: string,
  ): Promise<{ storagePrefix: string; analysed: boolean } | undefined> {
    const r = (
      await q.query<{ storage_prefix: string; analysis_job_id: string | null }>(
        'SELECT storage_prefix, analysis_job_id FROM public_datasets WHERE id = $1 AND withdrawn_at IS NULL',
        [datasetId],
      )
    )[0];
    return r && { storagePrefix: r.storage_prefix, analysed: r.analysis_job_id !== null };
  },
};
