import { loadConfigOrExit } from '../config';
import { flushTraces } from '../telemetry/tracing';
import { serveWorkerMetrics } from '../telemetry/worker-metrics';
import { closeContext, composeContext } from './compose';

/**
 * Worker process (`npm run worker`): needs only DATABASE_URL (or the shared PGlite data dir of a
 * single machine) and the storage settings. Runs WORKER_CONCURRENCY jobs per job name.
 *
 * SIGTERM / SIGINT drain (issue 34): stop taking jobs (readiness on WORKER_METRICS_PORT answers
 * 503), let the running ones finish for up to WORKER_DRAIN_SECONDS (Helm's
 * terminationGracePeriodSeconds is set above it), then hand the rest back to the queue — another
 * worker retries them, an analysis from its last checkpoint — and exit 0. A second signal exits at
 * once (the queue's heartbeats then hand the jobs over).
 */
async function main() {
  let config = loadConfigOrExit({ ...process.env, IN_PROCESS_WORKER: 'true' });
  if (config.workerConcurrency < 1) config = { ...config, workerConcurrency: 1 };
  if (!config.databaseUrl)
    console.warn(
      'DATABASE_URL is not set: this worker uses the embedded database in CELLCLOUD_DATA_DIR, so it must be the only process using it.',
    );
  const ctx = await composeContext(config);
  const metrics = await serveWorkerMetrics(ctx); // WORKER_METRICS_PORT (issue 34)
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      console.log(`CellCloud worker ${process.pid}: ${signal} again, exiting without draining`);
      process.exit(1);
    }
    stopping = true;
    console.log(
      `CellCloud worker ${process.pid}: ${signal}, draining ${ctx.queue.runningJobs} running job(s) for up to ${config.workerDrainSeconds} s`,
    );
    const started = Date.now();
    await ctx.queue.stop(true, config.workerDrainSeconds).catch((e) => console.error('[drain]', e));
    console.log(
      `CellCloud worker ${process.pid}: drained in ${((Date.now() - started) / 1000).toFixed(1)} s, ${ctx.queue.runningJobs} job(s) handed back`,
    );
    metrics?.close();
    await closeContext(ctx).catch(() => {});
    await flushTraces().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  console.log(
    `CellCloud worker ${process.pid} started (database: ${ctx.db.kind}, storage: ${ctx.storage.kind}, concurrency: ${config.workerConcurrency})`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
