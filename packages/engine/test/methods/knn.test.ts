import { describe, expect, it } from 'vitest';
import { knnExact } from '../../src/methods/knn';
import { EXACT_KNN_LIMIT, knnSearch } from '../../src/methods/knn-search';
import { Random } from '../../src/methods/random';

describe('knn', () => {
  it('exact search excludes the point itself and sorts by distance', () => {
    const pts = Float64Array.from([0, 0, 1, 0, 3, 0, 7, 0]);
    const { indices, distances } = knnExact(pts, 4, 2, 2);
    expect(Array.from(indices)).toEqual([1, 2, 0, 2, 1, 0, 2, 1]);
    expect(Array.from(distances.subarray(0, 2))).toEqual([1, 3]);
    expect(() => knnExact(pts, 4, 2, 4)).toThrow(/only 4 points/);
  });

  it('the scran.js path (above the exact limit) agrees with the exact search and excludes self', async () => {
    const rng = new Random(5);
    const n = EXACT_KNN_LIMIT + 500;
    const d = 5;
    const pts = Float64Array.from({ length: n * d }, () => rng.normal());
    const k = 10;
    const approx = await knnSearch(pts, n, d, k);
    const sample = Array.from({ length: 200 }, (_, i) => i * 41);
    // exact neighbours of the sampled points by brute force
    let overlap = 0;
    for (const q of sample) {
      const dist = Array.from({ length: n }, (_, p) => {
        let s = 0;
        for (let j = 0; j < d; j++) s += (pts[q * d + j] - pts[p * d + j]) ** 2;
        return [s, p] as const;
      })
        .filter(([, p]) => p !== q)
        .sort((a, b) => a[0] - b[0])
        .slice(0, k)
        .map(([, p]) => p);
      const got = Array.from(approx.indices.subarray(q * k, q * k + k));
      expect(got).not.toContain(q);
      overlap += got.filter((p) => dist.includes(p)).length;
    }
    const recall = overlap / (sample.length * k);
    console.log(`[knn] scran.js Annoy recall vs exact: ${recall.toFixed(3)}`);
    expect(recall).toBeGreaterThan(0.8);
  });
});
