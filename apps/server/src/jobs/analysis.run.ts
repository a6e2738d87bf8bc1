import type { AnalysisParams } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { listAnalysableSamples } from '../services/files/analysable';
import { chooseAnalysisPath } from './runner-child-budget';
import type { AnalysisChildInput, AnalysisChildResult } from './analysis.run.child';
import { checkpointPrefix } from '../storage/keys';
import { childTask } from './runner-child-process';
import { runChildAndPublish } from './runner-child-publish';
import { PermanentJobError, type Tracked } from './runner-tracked';

/**
 * Job `analysis.run`: the standard pipeline for one job row, in a child process under the
 * memory budget, written to a staging prefix and published atomically to `results/<jobId>/`
 * (`artifacts/` for the explorer, `analysis.h5ad`, `markers.csv`).
 */
export async function handleAnalysisRun(ctx: AppContext, t: Tracked): Promise<void> {
  const row = t.row;
  const byId = new Map((await listAnalysableSamples(ctx, row.user_id)).map((s) => [s.uploadId, s]));
  const draftSamples = (
    (row.draft as { datasets?: { id: string; name: string; group: string }[] }).datasets ?? []
  ).filter((d) => row.sample_ids.includes(d.id));
  const samples: AnalysisChildInput['samples'] = [];
  let cells = 0;
  let genes = 0;
  let nnz = 0;
  let largestSampleNnz = 0;
  for (const d of draftSamples) {
    const s = byId.get(d.id);
    if (!s)
      throw new PermanentJobError(
        `Sample "${d.name}" is no longer available (deleted or not Completed); re-initiate from upload.`,
        'jobs.failure.sampleGone',
        { name: d.name },
      );
    cells += s.properties.cells;
    genes = Math.max(genes, s.properties.genes);
    // Every stored non-zero holds at least one UMI: total UMIs bound the non-zeros from above.
    const sampleNnz = Math.min(s.properties.cells * s.properties.genes, Math.ceil(s.properties.umi.total));
    nnz += sampleNnz;
    largestSampleNnz = Math.max(largestSampleNnz, sampleNnz);
    samples.push({
      name: d.name,
      group: d.group,
      datasetKey: s.datasetKey,
      reference: d.id.startsWith('public:'),
    });
  }
  const params = row.params as AnalysisParams;
  // The child passes releaseSamples to runAnalysis (runner-child.ts): samples are emptied once merged.
  // From CELLCLOUD_STREAMED_MIN_CELLS input cells the job runs out of core (count stores).
  const path = chooseAnalysisPath(ctx.config, {
    cells,
    genes,
    nnz,
    params,
    largestSampleNnz,
    releaseSamples: true,
  });
  // issue 34: checkpoints after each finished step; a retry (the worker died, was drained or the
  // child failed) resumes from the last one. Kept until the job completes or fails for good.
  const checkpoints = checkpointPrefix(row.id);
  let result: AnalysisChildResult;
  try {
    result = (await runChildAndPublish(ctx, t, (outPrefix) =>
      childTask<AnalysisChildInput>(new URL('./analysis.run.child.ts', import.meta.url), row.id, {
        species: row.species,
        samples,
        params,
        outPrefix,
        ...(path.streamed
          ? { streamed: true }
          : {
              writeAlongside: path.writeAlongside,
              ...(row.cache_key ? { checkpoint: { prefix: checkpoints, key: row.cache_key } } : {}),
            }),
      }),
    )) as AnalysisChildResult;
  } catch (e) {
    if (e instanceof PermanentJobError || t.lastAttempt)
      await ctx.storage.delete(checkpoints).catch(() => {});
    throw e;
  }
  await ctx.storage.delete(checkpoints).catch(() => {});
  if (result.resumed.length && ctx.config.logLevel !== 'silent')
    console.log(
      `[jobs] analysis ${row.id} attempt ${t.attempt + 1} resumed after ${result.resumed.at(-1)} (skipped ${result.resumed.join(', ')})`,
    );
}
