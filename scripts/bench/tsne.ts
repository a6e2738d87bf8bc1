/**
 * npm run bench:engine -- tsne [pbmc3k synth20k 20000 100000] — the 2D t-SNE alone (issue 14,
 * brief F): the 90-neighbour search, the perplexity calibration and the layout (methods/tsne,
 * every default), each with wall and CPU seconds (process.cpuUsage) and the load average, and the
 * trustworthiness (k = 15, scikit-learn's definition) of the layout on a 2000-cell sample.
 * Inputs: `pbmc3k` and `synth20k` are the pipeline's reduced representation (every default, the
 * runner stopped once the neighbours step is done; cached in the temporary folder, so the pipeline
 * runs once per machine); a number n is the embeddings bench's ten Gaussian clusters in 30
 * dimensions. The neighbour search is the pipeline's (exact up to 10k cells, Annoy above).
 * BENCH_TSNE_SAVE=dir writes each layout (float32, row-major) to dir/<input>.f32;
 * BENCH_TSNE_REF=dir also prints the trustworthiness of the layout saved there (before/after
 * comparisons). Ends each input with one JSON line.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { AnalysisRunner } from '@cellcloud/engine/runner';
import { tsneAffinities } from '@cellcloud/engine/methods/tsne/affinities';
import { tsne } from '@cellcloud/engine/methods/tsne/tsne';
import { initScran } from '@cellcloud/engine/scran';
import { trustworthiness } from '@cellcloud/engine/stats/trustworthiness';
import { EXACT_SEARCH_MAX_CELLS } from '@cellcloud/engine/steps/neighbors';
import { tsnePerplexity } from '@cellcloud/engine/steps/tsne';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { gaussianClusters } from './embeddings';

interface Input {
  x: Float64Array;
  dims: number;
}

const cpuOf = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

function timed<T>(f: () => T): { value: T; wall: number; cpu: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = f();
  return { value, wall: (performance.now() - t0) / 1000, cpu: cpuOf(c0) };
}

/** The pipeline's reduced representation of pbmc3k or synth20k (every default), cached. */
async function pipelineInput(name: 'pbmc3k' | 'synth20k'): Promise<Input> {
  const cache = path.join(tmpdir(), `cellcloud-bench-tsne-${name}.json`);
  if (existsSync(cache)) {
    const c = JSON.parse(readFileSync(cache, 'utf8')) as { dims: number; x: number[] };
    return { dims: c.dims, x: Float64Array.from(c.x) };
  }
  const dataset =
    name === 'pbmc3k'
      ? await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, 'pbmc3k/10x')))
      : syntheticDataset({ nCells: 20_000, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 }).dataset;
  const runner = new AnalysisRunner({ oneShot: true, releaseSamples: true });
  const stop = new Error('stop after the neighbours step');
  let input: Input | undefined;
  try {
    await runner.run([{ name, dataset }], {}, (e) => {
      if (e.step !== 'clusters') return;
      const { embedding, dims } = runner.batch.value;
      input = { x: embedding.slice(), dims };
      throw stop;
    });
  } catch (e) {
    if (e !== stop) throw e;
  } finally {
    runner.free();
  }
  if (!input) throw new Error(`bench tsne: the pipeline did not reach the neighbours step on ${name}`);
  writeFileSync(cache, JSON.stringify({ dims: input.dims, x: Array.from(input.x) }));
  return input;
}

async function benchOne(name: string): Promise<void> {
  const input =
    name === 'pbmc3k' || name === 'synth20k'
      ? await pipelineInput(name)
      : { x: gaussianClusters(Number(name)), dims: 30 };
  const { x, dims } = input;
  const n = x.length / dims;
  if (!Number.isInteger(n) || n < 10) throw new Error(`bench tsne: unknown input "${name}"`);
  const scran = await initScran();
  const perplexity = tsnePerplexity(n);
  const search = timed(() => {
    const index = scran.buildNeighborSearchIndex(x, {
      numberOfDims: dims,
      numberOfCells: n,
      approximate: n > EXACT_SEARCH_MAX_CELLS,
    });
    const nn = scran.findNearestNeighbors(index, Math.min(n - 1, scran.perplexityToNeighbors(perplexity)));
    const knn = nn.serialize();
    nn.free();
    index.free();
    return knn;
  });
  const aff = timed(() => tsneAffinities(search.value, perplexity));
  const layout = timed(() => tsne(aff.value, { dims: 2, init: x }));
  const m = Math.min(n, 2000);
  const sample = Array.from({ length: m }, (_, i) => Math.floor((i * n) / m));
  const pick = (v: ArrayLike<number>, d: number) =>
    Float64Array.from({ length: m * d }, (_, t) => v[sample[Math.floor(t / d)] * d + (t % d)]);
  const xs = pick(x, dims);
  const trust = (y: ArrayLike<number>) => Number(trustworthiness(xs, dims, pick(y, 2), 2, 15).toFixed(4));
  const fig = (r: { wall: number; cpu: number }) => ({
    wall: Number(r.wall.toFixed(2)),
    cpu: Number(r.cpu.toFixed(2)),
  });
  const out: Record<string, unknown> = {
    bench: 'tsne',
    input: name,
    cells: n,
    search: fig(search),
    affinities: fig(aff),
    layout: fig(layout),
    trustworthiness: trust(layout.value),
  };
  const ref = process.env.BENCH_TSNE_REF && path.join(process.env.BENCH_TSNE_REF, `${name}.f32`);
  if (ref && existsSync(ref)) {
    const b = readFileSync(ref);
    out.referenceTrustworthiness = trust(new Float32Array(b.buffer, b.byteOffset, b.length / 4));
  }
  if (process.env.BENCH_TSNE_SAVE) {
    mkdirSync(process.env.BENCH_TSNE_SAVE, { recursive: true });
    writeFileSync(path.join(process.env.BENCH_TSNE_SAVE, `${name}.f32`), layout.value);
  }
  out.loadavg = loadavg().map((v) => Number(v.toFixed(2)));
  for (const k of ['search', 'affinities', 'layout'] as const) {
    const r = out[k] as { wall: number; cpu: number };
    console.log(`  ${name} (${n} cells) ${k.padEnd(10)} ${r.wall.toFixed(1)} s (CPU ${r.cpu.toFixed(1)} s)`);
  }
  console.log(`  ${name} trustworthiness ${String(out.trustworthiness)}`);
  console.log(JSON.stringify(out));
}

export async function benchTsne(inputs: string[]): Promise<void> {
  for (const name of inputs) await benchOne(name);
}
