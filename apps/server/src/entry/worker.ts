import { loadConfigOrExit } from '../config';
import { flushTraces } from '../telemetry/tracing';
import { serveWorkerMetrics } from '../telemetry/worker-metrics';
import { closeContext, composeContext } from './compose';

/**
 * Worker process (`npm run worker`): needs only DATABASE_URL (or the shared PGlite data dir of a
 * single machine) and the storage settings. Runs WORKER_CONCURRENCY jobs per job name; on
 * SIGINT/SIGTERM stops taking jobs, lets running ones finish briefly, then exits.
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
  const shutdown = async () => {
    metrics?.close();
    await closeContext(ctx).catch(() => {});
    await flushTraces().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  console.log(
    `CellCloud worker ${process.pid} started (database: ${ctx.db.kind}, storage: ${ctx.storage.kind}, concurrency: ${config.workerConcurrency})`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
