import { describe, expect, it } from 'vitest';
import { fuzzyConnectivities } from '../src/methods/fuzzy-graph';
import { knnExact } from '../src/methods/knn';
import { Random } from '../src/methods/random';
import { UmapLayoutJob, umapLayout } from '../src/stats/umap-layout';

/** Three Gaussian blobs in 10 dimensions (blob c is shifted by 6 along axes c, c+3, c+6, c+9), their 15-NN fuzzy graph. */
function blobs(n: number, seed: number) {
  const d = 10;
  const rng = new Random(seed);
  const truth = Int32Array.from({ length: n }, (_, i) => i % 3);
  const coords = new Float64Array(n * d);
  for (let t = 0; t < n * d; t++)
    coords[t] = rng.normal() + ((t % d) % 3 === truth[Math.floor(t / d)] ? 6 : 0);
  const { indices, distances } = knnExact(coords, n, d, 14);
  return { graph: fuzzyConnectivities({ runs: new Int32Array(n).fill(14), indices, distances }), truth };
}

/** Share of points whose nearest other point in the layout has the same label. */
function nearestAgreement(y: Float32Array, dims: number, truth: Int32Array): number {
  const n = truth.length;
  let same = 0;
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    let at = -1;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let s = 0;
      for (let t = 0; t < dims; t++) s += (y[i * dims + t] - y[j * dims + t]) ** 2;
      if (s < best) {
        best = s;
        at = j;
      }
    }
    if (truth[at] === truth[i]) same++;
  }
  return same / n;
}

describe('UMAP layout in a worker thread (stats/umap-layout + umap-sgd)', () => {
  const { graph, truth } = blobs(900, 5);
  const opts = { dims: 3, minDist: 0.3, epochs: 200, seed: 42 };

  it('gives exactly the single-thread layout for the same seed, computed in the worker, with progress up to 1', async () => {
    const single = umapLayout(graph, opts);
    const job = new UmapLayoutJob(graph, opts);
    const fractions: number[] = [];
    job.onProgress((f) => fractions.push(f));
    const values = await job.result();
    expect(job.ranIn).toBe('worker');
    expect(values).toHaveLength(900 * 3);
    expect(Array.from(values)).toEqual(Array.from(single));
    expect(fractions.length).toBeGreaterThan(10); // every 10 epochs
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1])).toBe(true);
    expect(fractions.at(-1)).toBe(1);
    // the blobs stay apart in 3D
    expect(nearestAgreement(values, 3, truth)).toBeGreaterThan(0.95);
  }, 120_000);

  it('depends on the seed, and a cancelled job gives no result', async () => {
    const other = new UmapLayoutJob(graph, { ...opts, seed: 7 });
    const cancelled = new UmapLayoutJob(graph, opts);
    await cancelled.cancel();
    await expect(cancelled.result()).rejects.toThrow(/cancelled/);
    const values = await other.result();
    expect(Array.from(values)).not.toEqual(Array.from(umapLayout(graph, opts)));
    expect(Array.from(values)).toEqual(Array.from(umapLayout(graph, { ...opts, seed: 7 })));
  }, 120_000);
});
