import type { AppContext } from '../context';
import '../i18n/jobs';
import { JobQueue } from '../queue/job-queue';
import { DraftsService } from './drafts';
import { JobsService } from './jobs';
import { JobEventsHub } from './jobs-events';
import { NotificationsService } from './notifications';

/** What the jobs area keeps in `ctx.services.jobs`. */
export interface JobsDeps {
  queue: JobQueue;
  jobs: JobsService;
  drafts: DraftsService;
  notifications: NotificationsService;
  events: JobEventsHub;
  /** Stops the in-process worker (if any), the events hub and the queue. */
  close(): Promise<void>;
}

export const JOBS = 'jobs';

/**
 * Wires the jobs area: starts the queue (pg-boss schema + queues), the services, the events hub,
 * and — for `npm start` (IN_PROCESS_WORKER, WORKER_CONCURRENCY > 0) — an in-process worker.
 * Registers `ctx.services.jobs`, `ctx.services.notifications` (read by account info) and
 * `ctx.queue` (health).
 */
export async function wireJobs(ctx: AppContext, opts: { worker?: boolean } = {}): Promise<JobsDeps> {
  const queue = new JobQueue(ctx.config, ctx.db);
  await queue.start();
  const notifications = new NotificationsService(ctx.db);
  const events = new JobEventsHub(ctx.db);
  let worker: { stop(): Promise<void> } | undefined;
  const runWorker = opts.worker ?? (ctx.config.inProcessWorker && ctx.config.workerConcurrency > 0);
  if (runWorker) {
    const { startWorker } = await import('../jobs/runner');
    worker = await startWorker(ctx, queue, notifications);
  }
  let closed = false;
  const deps: JobsDeps = {
    queue,
    jobs: new JobsService(ctx, queue, notifications),
    drafts: new DraftsService(ctx, queue),
    notifications,
    events,
    async close() {
      if (closed) return;
      closed = true;
      events.close();
      await worker?.stop();
      await queue.stop();
    },
  };
  // The queue lives as long as the database: whoever closes the db (entry points, tests, tools
  // that compose a context) stops the queue and worker first, so no pg-boss connection outlives it.
  const closeDb = ctx.db.close.bind(ctx.db);
  ctx.db.close = async () => {
    await deps.close().catch(() => {});
    await closeDb();
  };
  ctx.services.jobs = deps;
  ctx.services.notifications = notifications;
  ctx.queue = queue;
  return deps;
}

export function jobsDeps(ctx: AppContext): JobsDeps {
  const d = ctx.services.jobs;
  if (!d) throw new Error('jobs area is not wired: call wireJobs(ctx) in composeContext');
  return d;
}
