import type { JobName } from '@cellcloud/contracts';
import type { Queryable } from '../client';

export interface QueueStateRow {
  name: string;
  state: 'created' | 'retry' | 'active';
  jobs: number;
  /** Seconds since the oldest job of this name and state was created. */
  oldest_seconds: number;
}

/**
 * SQL over pg-boss's job table (schema `pgboss`, src/queue/job-queue.ts) for `/metrics` and the
 * fair queues: jobs waiting or running per job name, and the owner of a job's payload (the user
 * whose per-user cap applies).
 */
export const queueStatsRepo = {
  /** Waiting (created, retry) and running (active) jobs per name and state, with the oldest one's age. */
  async byState(q: Queryable): Promise<QueueStateRow[]> {
    const rows = await q.query<QueueStateRow>(
      `SELECT name, state::text AS state, count(*)::int AS jobs,
              EXTRACT(EPOCH FROM (now() - min(created_on)))::float8 AS oldest_seconds
         FROM pgboss.job
        WHERE state IN ('created', 'retry', 'active')
        GROUP BY name, state`,
    );
    return rows.map((r) => ({ ...r, jobs: Number(r.jobs), oldest_seconds: Number(r.oldest_seconds) }));
  },

  /** Analysis jobs (every worker's: analyses, sub-clusterings, diagnostics) by job kind and status. */
  async analysisJobs(q: Queryable): Promise<{ kind: string; status: string; jobs: number }[]> {
    const rows = await q.query<{ kind: string; status: string; jobs: number }>(
      'SELECT kind, status, count(*)::int AS jobs FROM analysis_jobs GROUP BY kind, status',
    );
    return rows.map((r) => ({ ...r, jobs: Number(r.jobs) }));
  },

  /**
   * The user a job works for, from the row its payload names (upload, analysis job, DE task,
   * analysis task, download request); undefined for jobs of no user (public ingest, diagnostics).
   */
  async ownerOf(q: Queryable, name: JobName, data: Record<string, unknown>): Promise<string | undefined> {
    const id = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : undefined);
    const lookups: Partial<Record<JobName, [string, string | undefined]>> = {
      'dataset.ingest': ['SELECT user_id FROM uploads WHERE id = $1', id('uploadId')],
      'analysis.run': ['SELECT user_id FROM analysis_jobs WHERE id = $1', id('jobId')],
      'analysis.subcluster': ['SELECT user_id FROM analysis_jobs WHERE id = $1', id('jobId')],
      'analysis.preprocess': ['SELECT user_id FROM analysis_drafts WHERE id = $1', id('jobId')],
      'analysis.deg': ['SELECT user_id FROM explore_deg_tasks WHERE id = $1', id('taskId')],
      'analysis.task': ['SELECT user_id FROM analysis_tasks WHERE id = $1', id('taskId')],
      'download.export': ['SELECT user_id FROM download_requests WHERE id = $1', id('requestId')],
      'system.noop': ['SELECT user_id FROM analysis_jobs WHERE id = $1', id('jobId')],
    };
    const l = lookups[name];
    if (!l || !l[1]) return undefined;
    const rows = await q.query<{ user_id: string }>(l[0], [l[1]]);
    return rows[0]?.user_id;
  },
};
