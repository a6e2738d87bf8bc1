import type { JobPayload } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { exploreDegTasksRepo } from '../db/repos/explore-deg-tasks';
import { jobsRepo } from '../db/repos/jobs';
import { finishDegTask } from '../completion/deg-task';
import { degCodesKey, degResultKey } from '../storage/keys';
import { resultsPrefix } from '../services/jobs-view';
import { degMemoryBytes, refuseOverBudget, storedResultSize } from './runner-child-budget';
import type { DegChildInput } from './analysis.deg.child';
import { childTask, runInChild } from './runner-child-process';

/**
 * Job `analysis.deg`: cluster genes of a grouping or group A vs group B on the raw counts of the
 * dataset's stored `analysis.h5ad` (log-normalized as the pipeline does), written to
 * `explore/<datasetId>/deg/<taskId>.json`. The computation runs in a child process (the worker
 * only passes storage keys): refused up front when its estimate exceeds WORKER_MEMORY_MB, and a
 * child that dies takes only itself down. Any failure ends the task `failed` with the reason as
 * its message (the user sees "Cluster DEGs calculation failed, please try again." and may start
 * it again); no queue retry. `signal` (the queue job's) kills the child on expiry or shutdown.
 */
export async function handleAnalysisDeg(
  ctx: AppContext,
  data: JobPayload<'analysis.deg'>,
  signal?: AbortSignal,
): Promise<void> {
  const row = await exploreDegTasksRepo.get(ctx.db, data.datasetId, data.taskId);
  if (!row || row.status !== 'running') return;
  try {
    const job = await jobsRepo.get(ctx.db, row.dataset_id);
    if (!job) throw new Error('the analysis was deleted');
    const prefix = resultsPrefix(job.result_of ?? job.id);
    const size = await storedResultSize(ctx.storage, prefix);
    if (!size) throw new Error('the stored analysis.h5ad or explorer manifest of this analysis is missing');
    refuseOverBudget(ctx.config, degMemoryBytes(size, row.labels.length), 'jobs.failure.memoryDeg');
    await runInChild(
      childTask<DegChildInput>(new URL('./analysis.deg.child.ts', import.meta.url), row.id, {
        h5adKey: `${prefix}analysis.h5ad`,
        codesKey: degCodesKey(row.dataset_id, row.id),
        mode: row.mode,
        labels: row.labels,
        outKey: degResultKey(row.dataset_id, row.id),
      }),
      { config: ctx.config, signal, memoryBytes: ctx.config.workerMemoryBytes },
    );
    await finishDegTask(ctx, row, 'completed', null);
  } catch (e) {
    await finishDegTask(ctx, row, 'failed', (e instanceof Error ? e.message : String(e)).slice(0, 1000));
  }
}
