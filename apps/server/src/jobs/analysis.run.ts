import type { AnalysisParams } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { listAnalysableSamples } from '../services/files/analysable';
import { resultsPrefix, stagingPrefix } from '../services/jobs-view';
import { runInChild } from './runner-child-process';
import { JobSuperseded, PermanentJobError, type Tracked } from './runner-tracked';

/** Fixed overhead of a child process (Node + scran.js WebAssembly) in bytes. */
const BASE_BYTES = 400 * 1024 * 1024;

/**
 * Up-front memory estimate of an analysis: the canonical h5ad stores the sparse counts compressed;
 * the pipeline holds them decompressed (≈ ×6) several times over (merged, filtered, normalized)
 * plus dense PCA/embedding matrices per cell. Conservative on purpose: a refused job says so,
 * a WebAssembly OOM kills the run.
 */
export function estimateAnalysisBytes(datasetBytes: number, cells: number): number {
  return BASE_BYTES + datasetBytes * 6 * 3 + cells * 50 * 8 * 4;
}

/**
 * Job `analysis.run`: the standard pipeline for one job row, in a child process under the
 * memory budget, written to a staging prefix and published atomically to `results/<jobId>/`
 * (`artifacts/` for the explorer, `analysis.h5ad`, `markers.csv`).
 */
export async function handleAnalysisRun(ctx: AppContext, t: Tracked): Promise<void> {
  const row = t.row;
  const byId = new Map((await listAnalysableSamples(ctx, row.user_id)).map((s) => [s.uploadId, s]));
  const draftSamples = ((row.draft as { datasets?: { id: string; name: string; group: string }[] }).datasets ?? []).filter((d) => row.sample_ids.includes(d.id));
  const samples = [];
  let bytes = 0;
  let cells = 0;
  for (const d of draftSamples) {
    const s = byId.get(d.id);
    if (!s) throw new PermanentJobError(`Sample "${d.name}" is no longer available (deleted or not Completed); re-initiate from upload.`);
    bytes += (await ctx.storage.stat(s.datasetKey))?.size ?? 0;
    cells += s.properties.cells;
    samples.push({ name: d.name, group: d.group, datasetKey: s.datasetKey });
  }
  const need = estimateAnalysisBytes(bytes, cells);
  if (need > ctx.config.workerMemoryBytes) {
    throw new PermanentJobError(
      `This analysis needs about ${Math.ceil(need / 2 ** 20)} MiB but a worker may use ${Math.floor(ctx.config.workerMemoryBytes / 2 ** 20)} MiB; select fewer samples or raise WORKER_MEMORY_MB.`,
    );
  }
  const staging = stagingPrefix(row.id, t.attempt);
  await ctx.storage.delete(staging);
  const params = row.params as AnalysisParams;
  await runInChild(
    { kind: 'analysis', jobId: row.id, species: row.species, samples, params, outPrefix: staging },
    { config: ctx.config, signal: t.signal, memoryBytes: ctx.config.workerMemoryBytes, onProgress: (f, step) => t.progress(f, step) },
  );
  await t.progress(0.97, 'publish');
  if (!(await t.stillOurs())) {
    await ctx.storage.delete(staging);
    throw new JobSuperseded(row.id);
  }
  await ctx.storage.delete(resultsPrefix(row.id));
  await ctx.storage.movePrefix(staging.slice(0, -1), resultsPrefix(row.id).slice(0, -1));
}
