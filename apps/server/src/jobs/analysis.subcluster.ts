import type { AppContext } from '../context';
import { exploreChildTasksRepo } from '../db/repos/explore-child-tasks';
import { jobsRepo } from '../db/repos/jobs';
import { childCellsKey } from '../services/explore/subcluster';
import { resultsPrefix } from '../services/jobs-view';
import { refuseOverBudget, storedResultSize, subclusterMemoryBytes, subsetNnz } from './runner-child-budget';
import type { SubclusterChildInput } from './analysis.subcluster.child';
import { childTask } from './runner-child-process';
import { runChildAndPublish } from './runner-child-publish';
import { PermanentJobError, type Tracked } from './runner-tracked';

/**
 * Job `analysis.subcluster`: the child analysis of a subset — the parent's stored counts
 * (`results/<parent>/analysis.h5ad`) restricted to the chosen cells, through the engine's
 * runSubcluster in a child process (refused up front when its estimate exceeds WORKER_MEMORY_MB),
 * written like any result (staging, then published to `results/<childId>/`). The worker keeps the
 * database work: the job row, the ownership check before publishing, the publish.
 */
export async function handleAnalysisSubcluster(ctx: AppContext, t: Tracked): Promise<void> {
  const link = await exploreChildTasksRepo.get(ctx.db, t.row.id);
  const parent = link && (await jobsRepo.get(ctx.db, link.parent_job_id));
  if (!link || !parent)
    throw new PermanentJobError(
      'The parent analysis of this sub-celltype analysis was deleted; start it again from a result.',
      'jobs.failure.parentGone',
    );
  await t.progress(0.01, 'inputs');
  const prefix = resultsPrefix(parent.result_of ?? parent.id);
  const size = await storedResultSize(ctx.storage, prefix);
  const cellsKey = childCellsKey(parent.id, t.row.id);
  const cellBytes = await ctx.storage.getBytes(cellsKey).catch(() => undefined);
  if (!size || !cellBytes)
    throw new PermanentJobError(
      'The parent analysis files are gone; re-run the parent analysis, then start the sub-celltype analysis again.',
      'jobs.failure.parentFilesGone',
    );
  const cells = new Uint32Array(cellBytes.byteLength / 4);
  new Uint8Array(cells.buffer).set(cellBytes);
  const need = subclusterMemoryBytes(
    size,
    cells.length,
    await subsetNnz(ctx.storage, size, cells),
    parent.params,
  );
  refuseOverBudget(ctx.config, need, 'jobs.failure.memorySubcluster');
  await runChildAndPublish(ctx, t, (outPrefix) =>
    childTask<SubclusterChildInput>(new URL('./analysis.subcluster.child.ts', import.meta.url), t.row.id, {
      name: t.row.job_name,
      h5adKey: `${prefix}analysis.h5ad`,
      cellsKey,
      parentParams: parent.params,
      child: t.row.params,
      outPrefix,
    }),
  );
}
