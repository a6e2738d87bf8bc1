import os from 'node:os';
import type { JobName } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { jobsRepo, type JobRow } from '../db/repos/jobs';
import type { JobContext } from '../queue/job-queue';
import { encodeJobMessage } from '../services/jobs-message';
import type { NotificationsService } from '../services/notifications';

/** Thrown inside a tracked job when its row says it is no longer ours to run (suspended, deleted). */
export class JobSuperseded extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} was suspended, deleted or taken over; stopping this attempt`);
  }
}

/**
 * A failure no retry can fix (input gone, over the memory budget, an engine validation error):
 * the job errors at once. `messageKey` + `params` let the API show it in the reader's language
 * (src/i18n/job-failures.ts); `message` is the English text for logs.
 */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly messageKey?: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Tracked {
  row: JobRow;
  attempt: number;
  /** True when a failure of this attempt is final (no retry left). */
  lastAttempt: boolean;
  signal: AbortSignal;
  /** Records progress; throws JobSuperseded when the job was suspended/deleted meanwhile. */
  progress(fraction: number, step: string): Promise<void>;
  /** True while this attempt still owns the job (checked before publishing results). */
  stillOurs(): Promise<boolean>;
}

export const WORKER_ID = `${os.hostname()}:${process.pid}`;

/**
 * Runs one attempt of a job that has an `analysis_jobs` row: claim (fenced by attempt number) →
 * body → complete exactly once → "completed" notification. A thrown error re-queues the row for
 * the queue's retry, or on the last attempt (or a PermanentJobError) marks it `error` with the
 * message and notifies. Other errors are rethrown so pg-boss records the failure and retries.
 */
export async function runTracked<N extends JobName>(
  ctx: AppContext,
  notifications: NotificationsService,
  job: JobContext<N>,
  jobId: string,
  body: (t: Tracked) => Promise<void>,
): Promise<void> {
  const attempt = job.attempt;
  const at = { bossId: job.bossId, attempt };
  const row = await jobsRepo.claim(ctx.db, jobId, at, WORKER_ID);
  if (!row) return; // suspended, deleted or already finished: nothing to do
  let lastWrite = 0;
  const tracked: Tracked = {
    row,
    attempt,
    lastAttempt: job.lastAttempt,
    signal: job.signal,
    async progress(fraction, step) {
      const now = Date.now();
      if (now - lastWrite < 250 && fraction < 1) return;
      lastWrite = now;
      if (!(await jobsRepo.progress(ctx.db, jobId, at, Math.min(1, Math.max(0, fraction)), step)))
        throw new JobSuperseded(jobId);
    },
    async stillOurs() {
      const r = await jobsRepo.get(ctx.db, jobId);
      return !!r && r.status === 'running' && r.attempt === attempt && r.boss_job_id === job.bossId;
    },
  };
  try {
    await body(tracked);
  } catch (e) {
    if (e instanceof JobSuperseded) return;
    const message = e instanceof Error ? e.message : String(e);
    const final = job.lastAttempt || e instanceof PermanentJobError;
    const stored =
      e instanceof PermanentJobError && e.messageKey
        ? encodeJobMessage(e.messageKey, e.params, message)
        : message.slice(0, 1000);
    const failed = await jobsRepo.fail(ctx.db, jobId, at, stored, final);
    if (failed && final) {
      await notifications.create(
        failed.user_id,
        'job.failed',
        // Rendered in the reader's language by the notifications list (services/jobs-message.ts).
        {
          jobName: failed.job_name,
          analysisId: failed.analysis_id,
          message: stored === message.slice(0, 1000) ? message.slice(0, 200) : stored,
        },
        jobId,
      );
    }
    if (e instanceof PermanentJobError) return; // settled: nothing for the queue to retry
    throw e;
  }
  const done = await jobsRepo.complete(ctx.db, jobId, at);
  if (done)
    await notifications.create(
      done.user_id,
      'job.completed',
      { jobName: done.job_name, analysisId: done.analysis_id },
      jobId,
    );
}
