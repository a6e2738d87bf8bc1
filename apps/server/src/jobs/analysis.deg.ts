import type { JobPayload } from '@cellcloud/contracts';
import { runDegTask } from '@cellcloud/engine';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import type { AppContext } from '../context';
import { exploreDegTasksRepo } from '../db/repos/explore-deg-tasks';
import { jobsRepo } from '../db/repos/jobs';
import { degCodesKey, degResultKey, finishDegTask } from '../services/explore/deg-tasks';
import { resultsPrefix } from '../services/jobs-view';

/**
 * Job `analysis.deg`: cluster genes of a grouping or group A vs group B on the raw counts of the
 * dataset's stored `analysis.h5ad` (log-normalized as the pipeline does), written to
 * `explore/<datasetId>/deg/<taskId>.json`. Any failure ends the task `failed` (the user sees
 * "Cluster DEGs calculation failed, please try again." and may start it again); no queue retry.
 */
export async function handleAnalysisDeg(ctx: AppContext, data: JobPayload<'analysis.deg'>): Promise<void> {
  const row = await exploreDegTasksRepo.get(ctx.db, data.datasetId, data.taskId);
  if (!row || row.status !== 'running') return;
  try {
    const job = await jobsRepo.get(ctx.db, row.dataset_id);
    if (!job) throw new Error('the analysis was deleted');
    const bytes = await ctx.storage.getBytes(`${resultsPrefix(job.result_of ?? job.id)}analysis.h5ad`);
    const ds = await readH5adBytes(bytes, 'analysis.h5ad');
    const cb = await ctx.storage.getBytes(degCodesKey(row.dataset_id, row.id));
    const codes = new Int32Array(cb.byteLength / 4);
    new Uint8Array(codes.buffer).set(cb);
    if (codes.length !== ds.counts.nCells)
      throw new Error(`the grouping has ${codes.length} cells, the stored result ${ds.counts.nCells}`);
    let rows;
    if (row.mode === 'cluster-markers') {
      rows = runDegTask(ds.counts, ds.genes.symbols, { mode: 'cluster-markers', codes, labels: row.labels });
    } else {
      const a: number[] = [];
      const b: number[] = [];
      codes.forEach((k, c) => (k === 0 ? a.push(c) : k === 1 ? b.push(c) : undefined));
      rows = runDegTask(ds.counts, ds.genes.symbols, {
        mode: 'compare',
        groupA: a,
        groupB: b,
        names: { a: row.labels[0] ?? 'A', b: row.labels[1] ?? 'B' },
      });
    }
    await ctx.storage.put(
      degResultKey(row.dataset_id, row.id),
      new TextEncoder().encode(JSON.stringify(rows)),
    );
    await finishDegTask(ctx, row, 'completed', null);
  } catch (e) {
    await finishDegTask(ctx, row, 'failed', (e instanceof Error ? e.message : String(e)).slice(0, 1000));
  }
}
