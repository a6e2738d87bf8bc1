import type { AppContext } from '../context';
import { jobsRepo } from '../db/repos/jobs';
import type { JobQueue } from '../queue/job-queue';
import type { NotificationsService } from '../services/notifications';

/**
 * Marks job rows whose queue job ended without our handler finishing them (a worker killed on its
 * last attempt, an expiry, a cancelled or purged queue job) as `error`, with a notification.
 * Runs periodically in every worker; the fenced update makes concurrent runs harmless.
 */
export async function reconcileJobs(
  ctx: AppContext,
  queue: JobQueue,
  notifications: NotificationsService,
): Promise<number> {
  let fixed = 0;
  for (const row of await jobsRepo.inFlight(ctx.db)) {
    const state = await queue.state(row.boss_queue!, row.boss_job_id!).catch(() => 'unknown');
    if (state === 'unknown') continue;
    if (state !== undefined && state !== 'failed' && state !== 'completed' && state !== 'cancelled') continue;
    const message =
      state === 'completed'
        ? 'The worker finished without recording a result.'
        : 'The worker running this job stopped (crash, kill or timeout) and no retry is left.';
    const failed = await jobsRepo.fail(ctx.db, row.id, null, message, true);
    if (failed) {
      fixed++;
      await notifications.create(
        failed.user_id,
        'job.failed',
        { jobName: failed.job_name, analysisId: failed.analysis_id, message },
        failed.id,
      );
    }
  }
  return fixed;
}
