import { analysisParams } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { publicIngestsRepo } from '../db/repos/public-ingests';
import type { JobContext } from '../queue/job-queue';
import { swapCatalogue } from '../services/public-datasets/store';
import type { AnalysisChildInput } from './analysis.run.child';
import { chooseAnalysisPath } from './runner-child-budget';
import { childTask, runInChild } from './runner-child-process';
import { PermanentJobError } from './runner-tracked';

/** What the job needs of the context (the admin tool runs it with its own, smaller one). */
export type PublicIngestContext = Pick<AppContext, 'config' | 'db' | 'storage'>;

/**
 * Job `public.ingest` (issue 20): the standard analysis of a public dataset whose validated,
 * standardized counts the admin tool staged under the new version's prefix
 * (`public/<id>/v<version>/counts.h5ad`). The analysis runs with the default parameters in the
 * memory-capped child process — the same child entry as `analysis.run` — and writes its outputs
 * (`artifacts/` for the explorer, `analysis.h5ad`, `markers.csv`) under that prefix, which no one
 * reads yet; then the catalogue row is swapped to the new version in one transaction and the
 * previous version's files are deleted. A final failure deletes the new prefix and leaves the
 * catalogue (the old version) untouched.
 */
export async function handlePublicIngest(ctx: PublicIngestContext, job: JobContext<'public.ingest'>) {
  const row = await publicIngestsRepo.claim(ctx.db, job.data.ingestId, job.attempt);
  if (!row) return; // finished (or gone): nothing to do
  let lastWrite = 0;
  const progress = async (fraction: number, step: string) => {
    const now = Date.now();
    if (now - lastWrite < 500 && fraction < 1) return;
    lastWrite = now;
    await publicIngestsRepo.progress(ctx.db, row.id, Math.min(1, Math.max(0, fraction)), step);
  };
  try {
    const entry = row.catalogue;
    const props = entry.properties as { umi?: { total?: number } };
    const params = analysisParams.parse({ species: entry.species });
    const nnz = Math.min(entry.cells * entry.genes, Math.ceil(props.umi?.total ?? entry.cells * entry.genes));
    // from CELLCLOUD_STREAMED_MIN_CELLS cells (issue 33) the analysis runs out of core, as analysis.run
    const path = chooseAnalysisPath(ctx.config, {
      cells: entry.cells,
      genes: entry.genes,
      nnz,
      params,
      largestSampleNnz: nnz,
      releaseSamples: true,
    });
    await progress(0.01, 'inputs');
    const input: AnalysisChildInput = {
      species: entry.species,
      samples: [{ name: entry.id, group: entry.id, datasetKey: `${row.storage_prefix}counts.h5ad` }],
      params,
      outPrefix: row.storage_prefix,
      ...(path.streamed ? { streamed: true } : { writeAlongside: path.writeAlongside }),
    };
    await runInChild(childTask(new URL('./analysis.run.child.ts', import.meta.url), row.id, input), {
      config: ctx.config,
      signal: job.signal,
      memoryBytes: ctx.config.workerMemoryBytes,
      onProgress: (f, step) => progress(0.02 + 0.93 * f, step),
    });
    await progress(0.97, 'publish');
    await swapCatalogue(ctx, entry, row.storage_prefix, row.id);
    await publicIngestsRepo.finish(ctx.db, row.id, {});
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const final = job.lastAttempt || e instanceof PermanentJobError;
    // the new prefix is deleted before the row says the ingest ended: whoever waits on the row (the
    // admin tool, its test) then finds none of its files (a loaded CI run listed them once)
    try {
      if (final) await ctx.storage.delete(row.storage_prefix);
    } finally {
      await publicIngestsRepo.finish(ctx.db, row.id, { error: message, final });
    }
    if (e instanceof PermanentJobError) return;
    throw e;
  }
}
