import { describe, expect, it } from 'vitest';
import { fuzzyConnectivities } from '../src/methods/fuzzy-graph';
import { knnExact } from '../src/methods/knn';
import { Random } from '../src/methods/random';
import { trustworthiness } from '../src/stats/trustworthiness';
import { UmapLayoutJob, umapLayout, type UmapLayoutOptions } from '../src/stats/umap-layout';

/**
 * The partitioned SGD of large UMAP layouts (stats/umap-sgd runPartitioned, issue 33), here on a
 * 5,000-node graph by lowering the size from which it is used: the same coordinates on 1, 2 or 3
 * threads and on rerun, and a layout as trustworthy as the sequential SGD's.
 */
const n = 5000;
const d = 10;
const rng = new Random(8);
// six Gaussian blobs in 10 dimensions (blob c shifted by 6 along axes c and c + 5)
const truth = Int32Array.from({ length: n }, (_, i) => i % 6);
const coords = new Float64Array(n * d);
for (let t = 0; t < n * d; t++) {
  const axis = t % d;
  coords[t] = rng.normal() + (axis % 6 === truth[Math.floor(t / d)] && axis < 6 ? 6 : 0);
}
const { indices, distances } = knnExact(coords, n, d, 14);
const graph = fuzzyConnectivities({ runs: new Int32Array(n).fill(14), indices, distances });
const opts: UmapLayoutOptions = { dims: 2, minDist: 0.3, epochs: 100, seed: 42, sequentialMaxNodes: 1000 };

/** Trustworthiness (k = 15) of the layout on every fifth node. */
function trust(y: Float32Array, dims: number): number {
  const pick = Array.from({ length: n / 5 }, (_, s) => s * 5);
  const x = Float64Array.from(pick.flatMap((i) => Array.from(coords.subarray(i * d, (i + 1) * d))));
  const ys = Float64Array.from(pick.flatMap((i) => Array.from(y.subarray(i * dims, (i + 1) * dims))));
  return trustworthiness(x, d, ys, dims, 15);
}

describe('partitioned UMAP SGD above sequentialMaxNodes', () => {
  it('gives the same coordinates on 1, 2 and 3 threads and on rerun', async () => {
    // one thread, on the calling thread; then 2 threads, 3 threads and 2 threads again
    const here = umapLayout(graph, opts);
    for (const threads of [2, 3, 2]) {
      const job = new UmapLayoutJob(graph, { ...opts, threads });
      const fractions: number[] = [];
      job.onProgress((f) => fractions.push(f));
      const values = await job.result();
      expect(job.ranIn).toBe('worker');
      expect(job.threads).toBe(threads);
      expect(fractions.at(-1)).toBe(1);
      expect(Array.from(values)).toEqual(Array.from(here));
    }
    // not the sequential SGD's coordinates, and the seed matters
    expect(Array.from(here)).not.toEqual(Array.from(umapLayout(graph, { ...opts, sequentialMaxNodes: n })));
    expect(Array.from(here)).not.toEqual(Array.from(umapLayout(graph, { ...opts, seed: 7 })));
  }, 240_000);

  it('keeps the neighbourhoods as the sequential SGD does, in 2-D and 3-D', () => {
    for (const dims of [2, 3]) {
      const sequential = trust(umapLayout(graph, { ...opts, dims, sequentialMaxNodes: n }), dims);
      const parted = trust(umapLayout(graph, { ...opts, dims }), dims);
      expect(parted).toBeGreaterThan(0.9);
      expect(parted).toBeGreaterThan(sequential - 0.01);
    }
  }, 240_000);

  it('a cancelled partitioned job stops its threads and gives no result', async () => {
    const job = new UmapLayoutJob(graph, { ...opts, threads: 2 });
    await job.cancel();
    await expect(job.result()).rejects.toThrow(/cancelled/);
  });
});
