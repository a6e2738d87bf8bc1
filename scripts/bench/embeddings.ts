/**
 * npm run bench:engine -- embeddings [20000 100000] — the embedding steps alone (issue 14, brief B):
 * the previous implementations (scran.js: umappp 2D UMAP, qdtsne Barnes–Hut t-SNE with 1000
 * iterations, 500 above 50k cells) against the current ones (methods/tsne FFT-accelerated t-SNE,
 * openTSNE schedule; stats/umap-layout 2D and 3D, each in its worker thread, timed together, then
 * the t-SNE alone — in the runner the three run at once) on ten Gaussian clusters of different spreads in a 30-dimensional stand-in for
 * a PCA space (the neighbour search as the pipeline's: Annoy above 10k cells). Prints wall and
 * CPU seconds (process-wide, workers included) and the trustworthiness (k = 15, scikit-learn's
 * definition) of each layout on a 2000-cell sample, then one JSON line per size. BENCH_OLD=0 skips
 * the previous implementations (on a busy machine the 100k qdtsne run alone takes many minutes).
 */
import { loadavg } from 'node:os';
import { fuzzyConnectivities } from '@cellcloud/engine/methods/fuzzy-graph';
import { Random } from '@cellcloud/engine/methods/random';
import { tsneAffinities } from '@cellcloud/engine/methods/tsne/affinities';
import { tsne } from '@cellcloud/engine/methods/tsne/tsne';
import { initScran } from '@cellcloud/engine/scran';
import { trustworthiness } from '@cellcloud/engine/stats/trustworthiness';
import { UmapLayoutJob } from '@cellcloud/engine/stats/umap-layout';
import { umapEpochs, umapMinDist } from '@cellcloud/engine/steps/embeddings';

const D = 30;

/** Ten Gaussian clusters of different spreads in D = 30 dimensions (row-major n × 30), seeded. */
export function gaussianClusters(n: number): Float64Array {
  const rng = new Random(9);
  const centers = Array.from({ length: 10 }, () => Array.from({ length: D }, () => 5 * rng.normal()));
  const x = new Float64Array(n * D);
  for (let i = 0; i < n; i++)
    for (let t = 0; t < D; t++) x[i * D + t] = centers[i % 10][t] + rng.normal() * (1 + (i % 4) * 0.4);
  return x;
}

async function timed<T>(f: () => T | Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = await f();
  const c = process.cpuUsage(c0);
  return { value, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

function interleave(x: Float64Array, y: Float64Array): Float32Array {
  return Float32Array.from({ length: 2 * x.length }, (_, t) => (t % 2 ? y : x)[t >> 1]);
}

export async function benchEmbeddings(sizes: number[]): Promise<void> {
  const scran = await initScran();
  for (const n of sizes) {
    const x = gaussianClusters(n);
    const index = scran.buildNeighborSearchIndex(x, {
      numberOfDims: D,
      numberOfCells: n,
      approximate: n > 10_000,
    });
    const nn15 = scran.findNearestNeighbors(index, 15);
    // serialized at once: a later WebAssembly memory growth invalidates scran.js's array views
    const knn15 = nn15.serialize();
    const nn90 = scran.findNearestNeighbors(index, 90);
    const knn90 = nn90.serialize();
    const sample = Array.from({ length: Math.min(n, 2000) }, (_, i) =>
      Math.floor((i * n) / Math.min(n, 2000)),
    );
    const pick = (v: ArrayLike<number>, d: number) =>
      Float64Array.from({ length: sample.length * d }, (_, t) => v[sample[Math.floor(t / d)] * d + (t % d)]);
    const xs = pick(x, D);
    const trust = (y: ArrayLike<number>, d: number) =>
      Number(trustworthiness(xs, D, pick(y, d), d, 15).toFixed(4));
    const fig: Record<string, { wall: number; cpu: number; trust: number }> = {};
    const log = (k: string, r: { wall: number; cpu: number }, y: ArrayLike<number>, d: number) => {
      fig[k] = { wall: Number(r.wall.toFixed(1)), cpu: Number(r.cpu.toFixed(1)), trust: trust(y, d) };
      console.log(
        `  ${n} cells ${k.padEnd(24)} ${r.wall.toFixed(1)} s (CPU ${r.cpu.toFixed(1)} s), trustworthiness ${fig[k].trust}`,
      );
    };
    // previous implementations (scran.js, one after the other); BENCH_OLD=0 skips them
    if (process.env.BENCH_OLD !== '0') await benchOld(n, nn15, nn90, log);
    // current: the 2D and 3D UMAP layouts in their worker threads (together), then the t-SNE
    const graph = fuzzyConnectivities(knn15, { nNeighbors: 15 });
    const opts = { minDist: umapMinDist(n), epochs: umapEpochs(n), seed: 42 };
    const umaps = await timed(() =>
      Promise.all([2, 3].map((dims) => new UmapLayoutJob(graph, { ...opts, dims }).result())),
    );
    const [u2, u3] = umaps.value;
    log('new UMAP 2D + 3D (workers)', umaps, u2, 2);
    fig['new umap 3D'] = { ...fig['new UMAP 2D + 3D (workers)'], trust: trust(u3, 3) };
    console.log(`  ${n} cells new UMAP 3D trustworthiness ${fig['new umap 3D'].trust}`);
    const t = await timed(() => tsne(tsneAffinities(knn90, 30), { dims: 2, init: x }));
    log('new t-SNE (FFT)', t, t.value, 2);
    for (const o of [nn15, nn90, index]) o.free();
    console.log(
      JSON.stringify({
        bench: 'embeddings',
        cells: n,
        ...fig,
        loadavg: loadavg().map((v) => Number(v.toFixed(2))),
      }),
    );
  }
}

type Log = (k: string, r: { wall: number; cpu: number }, y: ArrayLike<number>, d: number) => void;
type Nn = Parameters<Awaited<ReturnType<typeof initScran>>['runUmap']>[0];

/** The previous scran.js implementations (2D UMAP, qdtsne t-SNE), one after the other. */
async function benchOld(n: number, nn15: Nn, nn90: Nn, log: Log): Promise<void> {
  const scran = await initScran();
  const oldUmap = await timed(() =>
    scran.runUmap(nn15, { neighbors: 15, minDist: umapMinDist(n), epochs: umapEpochs(n) }),
  );
  log('old umap 2D (umappp)', oldUmap, interleave(oldUmap.value.x, oldUmap.value.y), 2);
  const oldTsne = await timed(() =>
    scran.runTsne(nn90, { perplexity: 30, maxIterations: n > 50_000 ? 500 : 1000 }),
  );
  log('old t-SNE (qdtsne)', oldTsne, interleave(oldTsne.value.x, oldTsne.value.y), 2);
}
