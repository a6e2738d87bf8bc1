/**
 * npx tsx scripts/bench/scrublet-stream.ts [synth50k | synth10k | pbmc3k ] —
 * issue 33: the streamed doublet step (stream/doublets.ts) on one sample, with the CPU seconds of
 * the step alone (process.cpuUsage: all threads), wall, peak RSS and load average, and a sha256 of
 * its results (scores as Float32 bytes, calls, per-sample threshold and rates) so that a change
 * meant to be bit-identical can be checked against a digest printed before it. synth50k / synth10k
 * are synthetic samples of 50k / 10k cells (synthetic.ts, fixed seeds; 10k runs several
 * simulations); pbmc3k reads the shared data (five simulations). With PHASES=1 it also prints
 * the wall and CPU seconds between Scrublet's progress reports, labelled by the fraction reached
 * (0.05 HVGs, 0.2 PCA, 0.3 + 0.65·(run + f)/runs simulation f = 0 and search f = 0.3 of each run,
 * 0.95 scores; docs/benchmarks/scrublet.md). Asserts nothing.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, type CellChunks } from '@cellcloud/formats/cell-chunks';
import { filesBundle } from '@cellcloud/formats/node-sources';
import { streamedDoublets } from '../../packages/engine/src/stream/doublets';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { sharedData } from '@cellcloud/testkit';

const which = process.argv[2] ?? 'synth50k';
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function input(): Promise<CellChunks> {
  if (which.startsWith('synth')) {
    const nCells = which === 'synth10k' ? 10_000 : 50_000;
    const m = syntheticDataset({ nCells, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 }).dataset
      .counts;
    return cellChunksOf(m);
  }
  const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) =>
    join(sharedData('pbmc3k/10x')!, f),
  );
  return cellChunksOf((await readDataset(await filesBundle(which, files))).counts);
}

const cells = await input();
console.log(`${which}: ${cells.nCells} cells, ${cells.nnz} non-zeros; load ${load()}`);
const c0 = process.cpuUsage();
const t0 = performance.now();
let last = { cpu: c0, at: t0, what: 'load and filter' };
const phase = (fraction: number) => {
  const cpu = process.cpuUsage(last.cpu);
  const at = performance.now();
  if (process.env.PHASES)
    console.log(
      `  ${last.what.padEnd(16)} ${((at - last.at) / 1e3).toFixed(2)} s wall / ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU s`,
    );
  last = { cpu: process.cpuUsage(), at, what: `from ${fraction.toFixed(3)}` };
};
const r = await streamedDoublets(cells, [0, cells.nCells], ['s'], 42, phase);
phase(1);
const c = process.cpuUsage(c0);
const wall = (performance.now() - t0) / 1e3;
const digest = createHash('sha256')
  .update(new Uint8Array(r.score.buffer, r.score.byteOffset, r.score.byteLength))
  .update(r.keep)
  .update(JSON.stringify(r.doublets))
  .digest('hex');
console.log(
  `doublets: ${wall.toFixed(2)} s wall / ${((c.user + c.system) / 1e6).toFixed(2)} CPU s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; load ${load()}`,
);
console.log(`${JSON.stringify(r.doublets)}\nsha256 ${digest}`);
process.exit(0);
