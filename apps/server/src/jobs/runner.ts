import type { AppContext } from '../context';
import type { JobQueue } from '../queue/job-queue';
import type { NotificationsService } from '../services/notifications';
import { handleAnalysisDeg } from './analysis.deg';
import { handleAnalysisPreprocess } from './analysis.preprocess';
import { handleAnalysisRun } from './analysis.run';
import { handleAnalysisSubcluster } from './analysis.subcluster';
import { handleAnalysisTask } from './analysis.task';
import { handleDatasetIngest } from './dataset.ingest';
import { handleDownloadExport } from './download.export';
import { handlePublicIngest } from './public.ingest';
import { expireDownloads } from '../completion/download-expiry';
import { reconcileJobs } from './runner-reconcile';
import { runTracked } from './runner-tracked';

export interface Worker {
  stop(): Promise<void>;
}

/**
 * Starts this process's worker: registers the handler of every job name with the queue
 * (WORKER_CONCURRENCY parallel jobs per name) and a periodic reconcile of job rows the queue gave
 * up on. Used by the in-process worker of `npm start` and by `npm run worker`.
 */
export async function startWorker(
  ctx: AppContext,
  queue: JobQueue,
  notifications: NotificationsService,
): Promise<Worker> {
  await queue.work('dataset.ingest', async (job) => {
    await handleDatasetIngest(ctx, job.data, () => {}, {
      geneListsDir: ctx.config.geneListsDir,
      signal: job.signal,
    });
  });
  await queue.work('analysis.preprocess', (job) => handleAnalysisPreprocess(ctx, job));
  await queue.work('analysis.run', (job) =>
    runTracked(ctx, notifications, job, job.data.jobId, (t) => handleAnalysisRun(ctx, t)),
  );
  await queue.work('analysis.deg', (job) => handleAnalysisDeg(ctx, job.data, job.signal));
  await queue.work('analysis.subcluster', (job) =>
    runTracked(ctx, notifications, job, job.data.jobId, (t) => handleAnalysisSubcluster(ctx, t)),
  );
  await queue.work('analysis.task', (job) => handleAnalysisTask(ctx, notifications, job));
  await queue.work('download.export', (job) => handleDownloadExport(ctx, notifications, job.data));
  await queue.work('public.ingest', (job) => handlePublicIngest(ctx, job));
  await queue.work(
    'system.noop',
    async (job) => {
      const { jobId, sleepMs, failTimes } = job.data;
      const body = async (progress?: (f: number, s: string) => Promise<void>) => {
        const steps = Math.max(1, Math.min(20, Math.ceil(sleepMs / 250)));
        for (let i = 1; i <= steps && sleepMs > 0; i++) {
          await new Promise((r) => setTimeout(r, sleepMs / steps));
          if (job.signal.aborted)
            throw new Error('The job was stopped (timed out or the worker is shutting down).');
          await progress?.(i / steps, 'noop');
        }
        if (job.attempt < failTimes) throw new Error(`diagnostic failure on attempt ${job.attempt + 1}`);
      };
      if (jobId) await runTracked(ctx, notifications, job, jobId, (t) => body((f, s) => t.progress(f, s)));
      else await body();
    },
    { batchSize: 10 },
  );
  const timer = setInterval(
    () => void reconcileJobs(ctx, queue, notifications).catch(() => {}),
    ctx.config.queueSuperviseSeconds * 1000,
  );
  timer.unref();
  // converted downloads past their validity are deleted and their requests expired (issue 21)
  const expiry = setInterval(
    () => void expireDownloads(ctx).catch(() => {}),
    ctx.config.downloadSweepSeconds * 1000,
  );
  expiry.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearInterval(expiry);
    },
  };
}
