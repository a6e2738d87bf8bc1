import type { JobKind, JobName, JobStatus } from '@cellcloud/contracts';
import type { Db, Queryable } from '../client';

/** A row of `analysis_jobs` (timestamps as Date). */
export interface JobRow {
  id: string;
  user_id: string;
  analysis_id: string;
  job_name: string;
  kind: JobKind;
  status: JobStatus;
  progress: number;
  step: string | null;
  message: string | null;
  species: string;
  sample_ids: string[];
  params: Record<string, unknown>;
  draft: Record<string, unknown>;
  cache_key: string | null;
  result_of: string | null;
  boss_job_id: string | null;
  boss_queue: JobName | null;
  attempt: number;
  completions: number;
  worker: string | null;
  submitted_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/** One run of a job row: the queue job that runs it and its retry number. */
export interface Attempt {
  bossId: string;
  attempt: number;
}

export interface NewJob {
  userId: string;
  jobName: string;
  kind: JobKind;
  species: string;
  sampleIds: string[];
  params: unknown;
  draft: unknown;
  cacheKey: string | null;
}

const touch = 'updated_at = clock_timestamp()';
/** Microsecond-exact UTC text of a timestamptz (so "changed since" never repeats or skips a row). */
export const tsText = (col: string) => `to_char(timezone('UTC', ${col}), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const jobsRepo = {
  async insert(q: Queryable, j: NewJob): Promise<JobRow> {
    const [row] = await q.query<JobRow>(
      `INSERT INTO analysis_jobs (user_id, analysis_id, job_name, kind, status, species, sample_ids, params, draft, cache_key)
       VALUES ($1, 'CA' || lpad(nextval('analysis_id_seq')::text, 6, '0'), $2, $3, 'submitted', $4, $5, $6, $7, $8)
       RETURNING *`,
      [
        j.userId,
        j.jobName,
        j.kind,
        j.species,
        JSON.stringify(j.sampleIds),
        JSON.stringify(j.params),
        JSON.stringify(j.draft),
        j.cacheKey,
      ],
    );
    return row!;
  },

  async get(q: Queryable, id: string): Promise<JobRow | undefined> {
    return (await q.query<JobRow>('SELECT * FROM analysis_jobs WHERE id = $1', [id]))[0];
  },

  async list(
    q: Queryable,
    userId: string,
    kind: JobKind | undefined,
    limit: number,
    offset: number,
    synEcoSysOnly = false,
  ) {
    let where = kind ? 'user_id = $1 AND kind = $2' : 'user_id = $1';
    // analyses with a public database sample (`public:<id>`, issue 20)
    if (synEcoSysOnly)
      where += ` AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(sample_ids) AS e(sid) WHERE e.sid LIKE 'public:%')`;
    const args: unknown[] = kind ? [userId, kind] : [userId];
    const [{ n }] = (await q.query<{ n: string }>(
      `SELECT count(*) AS n FROM analysis_jobs WHERE ${where}`,
      args,
    )) as [{ n: string }];
    const rows = await q.query<JobRow>(
      `SELECT * FROM analysis_jobs WHERE ${where} ORDER BY submitted_at DESC, analysis_id DESC LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { total: Number(n), rows };
  },

  /**
   * A completed job of this user with this cache key whose results still exist (the original, not
   * a copy). Per user: results are private, so another user's identical run is not shown.
   */
  async findCompletedByCacheKey(q: Queryable, userId: string, cacheKey: string): Promise<JobRow | undefined> {
    return (
      await q.query<JobRow>(
        `SELECT * FROM analysis_jobs WHERE cache_key = $1 AND user_id = $2 AND status = 'completed' AND result_of IS NULL
         ORDER BY finished_at LIMIT 1`,
        [cacheKey, userId],
      )
    )[0];
  },

  async markCachedCompleted(q: Queryable, id: string, resultOf: string): Promise<JobRow> {
    const [row] = await q.query<JobRow>(
      `UPDATE analysis_jobs SET status = 'completed', progress = 1, step = 'cached', result_of = $2,
         started_at = now(), finished_at = now(), ${touch} WHERE id = $1 RETURNING *`,
      [id, resultOf],
    );
    return row!;
  },

  async markQueued(q: Queryable, id: string, bossQueue: JobName, bossJobId: string): Promise<void> {
    await q.query(
      `UPDATE analysis_jobs SET status = 'queued', boss_queue = $2, boss_job_id = $3, progress = 0, step = NULL, message = NULL, ${touch}
       WHERE id = $1 AND status = 'submitted'`,
      [id, bossQueue, bossJobId],
    );
  },

  /**
   * Start an attempt unless the job was suspended/deleted/finished meanwhile, or re-queued under
   * another queue job (a resume): only the current queue job may run the row.
   */
  async claim(q: Queryable, id: string, at: Attempt, worker: string): Promise<JobRow | undefined> {
    return (
      await q.query<JobRow>(
        `UPDATE analysis_jobs SET status = 'running', attempt = $2, worker = $3, progress = 0, step = 'start', message = NULL,
           started_at = COALESCE(started_at, now()), ${touch}
         WHERE id = $1 AND boss_job_id = $4 AND status IN ('queued', 'running') RETURNING *`,
        [id, at.attempt, worker, at.bossId],
      )
    )[0];
  },

  /** Progress of the current attempt; false when the job is no longer ours to run (suspended…). */
  async progress(q: Queryable, id: string, at: Attempt, fraction: number, step: string): Promise<boolean> {
    const r = await q.query(
      `UPDATE analysis_jobs SET progress = $3, step = $4, ${touch}
       WHERE id = $1 AND attempt = $2 AND boss_job_id = $5 AND status = 'running' RETURNING id`,
      [id, at.attempt, fraction, step, at.bossId],
    );
    return r.length === 1;
  },

  /** Completes the current attempt exactly once (fenced by queue job, attempt and status). */
  async complete(q: Queryable, id: string, at: Attempt): Promise<JobRow | undefined> {
    return (
      await q.query<JobRow>(
        `UPDATE analysis_jobs SET status = 'completed', progress = 1, step = 'done', finished_at = now(),
           completions = completions + 1, ${touch}
         WHERE id = $1 AND attempt = $2 AND boss_job_id = $3 AND status = 'running' RETURNING *`,
        [id, at.attempt, at.bossId],
      )
    )[0];
  },

  /** Final failure (`final`) → error; otherwise back to queued for the queue's retry. */
  async fail(
    q: Queryable,
    id: string,
    at: Attempt | null,
    message: string,
    final: boolean,
  ): Promise<JobRow | undefined> {
    const fence =
      at === null
        ? `status IN ('queued', 'running', 'submitted')`
        : `attempt = ${Number(at.attempt)} AND boss_job_id = $3 AND status = 'running'`;
    const params = at === null ? [id, message] : [id, message, at.bossId];
    return (
      await q.query<JobRow>(
        final
          ? `UPDATE analysis_jobs SET status = 'error', message = $2, finished_at = now(), ${touch} WHERE id = $1 AND ${fence} RETURNING *`
          : `UPDATE analysis_jobs SET status = 'queued', message = $2, ${touch} WHERE id = $1 AND ${fence} RETURNING *`,
        params,
      )
    )[0];
  },

  async setStatus(q: Queryable, id: string, from: JobStatus[], to: JobStatus): Promise<JobRow | undefined> {
    return (
      await q.query<JobRow>(
        `UPDATE analysis_jobs SET status = $3, ${touch} WHERE id = $1 AND status = ANY($2::text[]) RETURNING *`,
        [id, from, to],
      )
    )[0];
  },

  async delete(q: Queryable, id: string): Promise<void> {
    await q.query('DELETE FROM analysis_jobs WHERE id = $1', [id]);
  },

  /** Other jobs whose results point at this one (cache copies). */
  async countResultUsers(q: Queryable, id: string): Promise<number> {
    const [r] = await q.query<{ n: string }>('SELECT count(*) AS n FROM analysis_jobs WHERE result_of = $1', [
      id,
    ]);
    return Number(r?.n ?? 0);
  },

  /** Rows changed after `since` (an exact timestamp string as returned in `ts`). */
  async changedSince(db: Db, since: string): Promise<(JobRow & { ts: string })[]> {
    return db.query<JobRow & { ts: string }>(
      `SELECT *, ${tsText('updated_at')} AS ts FROM analysis_jobs WHERE updated_at > $1::timestamptz ORDER BY updated_at LIMIT 500`,
      [since],
    );
  },

  /** Jobs the queue may have given up on without our handler running (killed worker, expiry). */
  async inFlight(db: Db): Promise<JobRow[]> {
    return db.query<JobRow>(
      `SELECT * FROM analysis_jobs WHERE status IN ('queued', 'running') AND boss_job_id IS NOT NULL AND boss_queue IS NOT NULL AND updated_at < now() - interval '10 seconds'`,
    );
  },
};
