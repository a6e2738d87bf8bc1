import type { AppContext } from '../context';
import '../i18n/jobs';
import type { JobQueue } from '../queue/job-queue';
import type { NotificationsService } from './notifications';
import { DraftsService } from './drafts';
import { JobsService } from './jobs';
import { JobEventsHub } from './jobs-events';

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

/** A worker running on the queue, as src/jobs/runner.ts starts one. */
export interface WorkerHandle {
  stop(): Promise<void>;
}

/**
 * Starts this process's worker on the started queue. The entry point passes src/jobs/runner.ts's
 * `startWorker` when this process runs jobs: the services layer never imports job handlers.
 */
export type StartWorker = (
  ctx: AppContext,
  queue: JobQueue,
  notifications: NotificationsService,
) => Promise<WorkerHandle>;

/**
 * Wires the jobs area on the context's queue and notifications (made by the composition root):
 * starts the queue (pg-boss schema + queues), the services, the events hub and — when the entry
 * point passes `startWorker` — this process's worker. Registers `ctx.services.jobs`.
 */
export async function wireJobs(ctx: AppContext, startWorker?: StartWorker): Promise<JobsDeps> {
  const { queue, notifications } = ctx;
  await queue.start();
  const events = new JobEventsHub(ctx.db);
  const worker = startWorker ? await startWorker(ctx, queue, notifications) : undefined;
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
  ctx.services.jobs = deps;
  return deps;
}

/** The jobs area of a context composed by src/entry/compose.ts (which always wires it). */
export function jobsDeps(ctx: AppContext): JobsDeps {
  const d = ctx.services.jobs;
  if (!d) throw new Error('jobs area is not wired: call wireJobs(ctx) in composeContext');
  return d;
}
