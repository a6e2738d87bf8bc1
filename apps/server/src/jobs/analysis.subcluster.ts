import type { AnalysisParams } from '@cellcloud/contracts';
import { runSubcluster, writeOutputs } from '@cellcloud/engine';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import type { AppContext } from '../context';
import { exploreChildTasksRepo } from '../db/repos/explore-child-tasks';
import { jobsRepo } from '../db/repos/jobs';
import { childCellsKey } from '../services/explore/subcluster';
import { resultsPrefix, stagingPrefix } from '../services/jobs-view';
import { JobSuperseded, PermanentJobError, type Tracked } from './runner-tracked';

/**
 * Job `analysis.subcluster`: the child analysis of a subset — the parent's stored counts
 * (`results/<parent>/analysis.h5ad`) restricted to the chosen cells, through the engine's
 * runSubcluster, written like any result (staging, then published to `results/<childId>/`).
 * Runs in the worker process (subsets are at most one parent's cells).
 */
export async function handleAnalysisSubcluster(ctx: AppContext, t: Tracked): Promise<void> {
  const link = await exploreChildTasksRepo.get(ctx.db, t.row.id);
  const parent = link && (await jobsRepo.get(ctx.db, link.parent_job_id));
  if (!link || !parent)
    throw new PermanentJobError(
      'The parent analysis of this sub-celltype analysis was deleted; start it again from a result.',
    );
  await t.progress(0.01, 'inputs');
  const h5ad = await ctx.storage
    .getBytes(`${resultsPrefix(parent.result_of ?? parent.id)}analysis.h5ad`)
    .catch(() => {
      throw new PermanentJobError(
        'The parent analysis files are gone; re-run the parent analysis, then start the sub-celltype analysis again.',
      );
    });
  const ds = await readH5adBytes(h5ad, 'analysis.h5ad');
  const cb = await ctx.storage.getBytes(childCellsKey(parent.id, t.row.id));
  const cells = new Uint32Array(cb.byteLength / 4);
  new Uint8Array(cells.buffer).set(cb);
  const result = await runSubcluster(
    {
      name: t.row.job_name,
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      cells,
      parentParams: parent.params as AnalysisParams,
      child: t.row.params,
    },
    (e) => void t.progress(0.02 + e.fraction * 0.9, e.step).catch(() => {}),
  );
  const staging = stagingPrefix(t.row.id, t.attempt);
  await ctx.storage.delete(staging);
  await writeOutputs(result, { write: (rel, bytes) => ctx.storage.put(staging + rel, bytes) });
  await t.progress(0.97, 'publish');
  if (!(await t.stillOurs())) {
    await ctx.storage.delete(staging);
    throw new JobSuperseded(t.row.id);
  }
  await ctx.storage.delete(resultsPrefix(t.row.id));
  await ctx.storage.movePrefix(staging.slice(0, -1), resultsPrefix(t.row.id).slice(0, -1));
}
