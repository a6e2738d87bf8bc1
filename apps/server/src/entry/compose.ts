import type { Config } from '../config';
import type { AppContext } from '../context';
import { openDb } from '../db/client';
import { migrate } from '../db/migrate';
import { openStorage } from '../storage';
import path from 'node:path';
import { JobQueue } from '../queue/job-queue';
import { wireAccounts } from '../services/accounts/wire';
import { wireFiles } from '../services/files/wire';
import { wireJobs, type JobsDeps, type StartWorker } from '../services/jobs-wire';
import { NotificationsService } from '../services/notifications';

/**
 * Composition root shared by the API and worker entry points (and the test harness): opens the
 * database (PGlite under `<dataDir>/pg` unless DATABASE_URL is set), applies migrations, opens
 * storage and builds the AppContext. Feature areas plug their services in `wireServices`.
 */
export async function composeContext(
  config: Config,
  overrides: { pgliteDir?: string | null; pgliteTemplate?: Blob } = {},
): Promise<AppContext> {
  const pgliteDir =
    overrides.pgliteDir === null ? undefined : (overrides.pgliteDir ?? path.join(config.dataDir, 'pg'));
  const db = await openDb({
    url: config.databaseUrl,
    dataDir: pgliteDir,
    pgliteTemplate: overrides.pgliteTemplate,
  });
  await migrate(db);
  const storage = await openStorage(config);
  const ctx: AppContext = {
    config,
    db,
    storage,
    auth: { resolve: async () => null },
    queue: new JobQueue(config, db),
    notifications: new NotificationsService(db),
    services: {},
  };
  await wireServices(ctx);
  return ctx;
}

/**
 * Feature areas register their services and the real AuthResolver here (one line each).
 * Until the accounts service is wired, no token resolves, so every authenticated route is 401.
 */
export async function wireServices(ctx: AppContext): Promise<void> {
  await wireAccounts(ctx);
  await wireJobsArea(ctx);
  await wireFiles(ctx); // after jobs: uploads left in 'parsing' are re-queued on the job queue
}

/**
 * Wires the jobs area on `ctx.queue` and, for `npm start` / `npm run worker` (IN_PROCESS_WORKER
 * and WORKER_CONCURRENCY > 0), starts this process's worker: the entry point is the only place
 * that brings the job handlers (src/jobs) in, loaded only when this process runs jobs.
 */
export async function wireJobsArea(ctx: AppContext): Promise<JobsDeps> {
  const runWorker = ctx.config.inProcessWorker && ctx.config.workerConcurrency > 0;
  const startWorker: StartWorker | undefined = runWorker
    ? (await import('../jobs/runner')).startWorker
    : undefined;
  return wireJobs(ctx, startWorker);
}

/** Closes what composeContext opened: the jobs area (worker, events, queue), then the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.services.jobs?.close().catch(() => {});
  await ctx.db.close();
}
