import type { Queryable } from '../client';
import { tsText } from './jobs';

/** A row of `analysis_tasks` (migration 0400). */
export interface TaskRow {
  id: string;
  user_id: string;
  dataset_id: string;
  result_id: string;
  task: string;
  params: Record<string, unknown>;
  /** upload field → { fileName, key (storage), sha256 } */
  uploads: Record<string, { fileName: string; key: string; sha256: string }>;
  params_hash: string;
  engine_version: string;
  status: 'submitted' | 'running' | 'completed' | 'failed';
  progress: number;
  step: string | null;
  message_key: string | null;
  message_params: Record<string, unknown> | null;
  output_prefix: string;
  cached_from: string | null;
  attempt: number;
  boss_job_id: string | null;
  created_at: Date;
  started_at: Date | null;
  updated_at: Date;
  finished_at: Date | null;
}

export interface NewTask {
  id: string;
  userId: string;
  datasetId: string;
  resultId: string;
  task: string;
  params: Record<string, unknown>;
  uploads: TaskRow['uploads'];
  paramsHash: string;
  engineVersion: string;
  outputPrefix: string;
  /** Set for a cache hit: the row is inserted completed, pointing at that task's outputs. */
  cachedFrom?: string;
}

export const analysisTasksRepo = {
  async insert(q: Queryable, t: NewTask): Promise<TaskRow> {
    const rows = await q.query<TaskRow>(
      `INSERT INTO analysis_tasks (id, user_id, dataset_id, result_id, task, params, uploads, params_hash, engine_version,
         output_prefix, cached_from, status, progress, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
         CASE WHEN $11::text IS NULL THEN 'submitted' ELSE 'completed' END,
         CASE WHEN $11::text IS NULL THEN 0 ELSE 1 END,
         CASE WHEN $11::text IS NULL THEN NULL ELSE now() END,
         CASE WHEN $11::text IS NULL THEN NULL ELSE now() END)
       RETURNING *`,
      [
        t.id,
        t.userId,
        t.datasetId,
        t.resultId,
        t.task,
        JSON.stringify(t.params),
        JSON.stringify(t.uploads),
        t.paramsHash,
        t.engineVersion,
        t.outputPrefix,
        t.cachedFrom ?? null,
      ],
    );
    return rows[0]!;
  },

  async get(q: Queryable, id: string): Promise<TaskRow | undefined> {
    return (await q.query<TaskRow>('SELECT * FROM analysis_tasks WHERE id = $1', [id]))[0];
  },

  async list(q: Queryable, datasetId: string, task?: string): Promise<TaskRow[]> {
    return q.query<TaskRow>(
      `SELECT * FROM analysis_tasks WHERE dataset_id = $1 AND ($2::text IS NULL OR task = $2)
       ORDER BY created_at DESC, id LIMIT 500`,
      [datasetId, task ?? null],
    );
  },

  /** Completed tasks of a result (their per-cell columns feed later tasks and the explorer). */
  async completedOfResult(q: Queryable, datasetId: string): Promise<TaskRow[]> {
    return q.query<TaskRow>(
      `SELECT * FROM analysis_tasks WHERE dataset_id = $1 AND status = 'completed' ORDER BY finished_at, id`,
      [datasetId],
    );
  },

  /** An earlier completed run with the same cache key whose outputs are its own (not a cache hit). */
  async findCached(
    q: Queryable,
    k: { resultId: string; task: string; paramsHash: string; engineVersion: string },
  ): Promise<TaskRow | undefined> {
    return (
      await q.query<TaskRow>(
        `SELECT * FROM analysis_tasks WHERE result_id = $1 AND task = $2 AND params_hash = $3 AND engine_version = $4
           AND status = 'completed' AND cached_from IS NULL ORDER BY finished_at DESC LIMIT 1`,
        [k.resultId, k.task, k.paramsHash, k.engineVersion],
      )
    )[0];
  },

  /** Rows that reuse `id`'s outputs. */
  async cacheUsers(q: Queryable, id: string): Promise<TaskRow[]> {
    return q.query<TaskRow>('SELECT * FROM analysis_tasks WHERE cached_from = $1', [id]);
  },

  async setBossJob(q: Queryable, id: string, bossId: string): Promise<void> {
    await q.query(
      'UPDATE analysis_tasks SET boss_job_id = $2, updated_at = clock_timestamp() WHERE id = $1',
      [id, bossId],
    );
  },

  /**
   * Claims a task for attempt `attempt` (a retry after a dead worker re-claims a running row).
   * Undefined when the task is gone or already finished.
   */
  async claim(q: Queryable, id: string, attempt: number): Promise<TaskRow | undefined> {
    return (
      await q.query<TaskRow>(
        `UPDATE analysis_tasks SET status = 'running', attempt = $2, progress = 0, step = 'start',
           started_at = COALESCE(started_at, now()), updated_at = clock_timestamp()
         WHERE id = $1 AND status IN ('submitted', 'running') RETURNING *`,
        [id, attempt],
      )
    )[0];
  },

  /** Records progress of attempt `attempt`; false when the row is no longer ours (deleted, superseded). */
  async progress(
    q: Queryable,
    id: string,
    attempt: number,
    fraction: number,
    step: string,
  ): Promise<boolean> {
    const r = await q.query<{ id: string }>(
      `UPDATE analysis_tasks SET progress = $3, step = $4, updated_at = clock_timestamp()
       WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING id`,
      [id, attempt, fraction, step],
    );
    return r.length > 0;
  },

  async complete(q: Queryable, id: string, attempt: number): Promise<TaskRow | undefined> {
    return (
      await q.query<TaskRow>(
        `UPDATE analysis_tasks SET status = 'completed', progress = 1, step = 'done', finished_at = now(),
           updated_at = clock_timestamp()
         WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING *`,
        [id, attempt],
      )
    )[0];
  },

  async fail(
    q: Queryable,
    id: string,
    messageKey: string,
    messageParams: Record<string, unknown>,
  ): Promise<TaskRow | undefined> {
    return (
      await q.query<TaskRow>(
        `UPDATE analysis_tasks SET status = 'failed', message_key = $2, message_params = $3, finished_at = now(),
           updated_at = clock_timestamp()
         WHERE id = $1 AND status IN ('submitted', 'running') RETURNING *`,
        [id, messageKey, JSON.stringify(messageParams)],
      )
    )[0];
  },

  async delete(q: Queryable, id: string): Promise<void> {
    await q.query('DELETE FROM analysis_tasks WHERE id = $1', [id]);
  },

  /** Rows changed since `since` (ISO), for the live events hub. */
  async changedSince(q: Queryable, since: string): Promise<(TaskRow & { ts: string })[]> {
    return q.query<TaskRow & { ts: string }>(
      `SELECT *, ${tsText('updated_at')} AS ts
       FROM analysis_tasks WHERE updated_at > $1::timestamptz ORDER BY updated_at LIMIT 500`,
      [since],
    );
  },
};
