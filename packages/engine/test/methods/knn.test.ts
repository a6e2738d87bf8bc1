import { describe, expect, it } from 'vitest';
import { knnExact } from '../../src/methods/knn';
import {
  BRUTE_FORCE_MAX_POINTS,
  countMarkedNeighbors,
  EXACT_KNN_LIMIT,
  knnLists,
  knnSearch,
} from '../../src/methods/knn-search';
import { LIST_SIZE, listCount } from '../../src/methods/knn-groups';
import { Random } from '../../src/methods/random';
import { KnnResult } from '../../src/steps/neighbors';

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

  it('counts marked neighbours like an exact search (exact below the limit, inverted lists above)', async () => {
    // 6 Gaussian clusters in 10 dims; the marked points (index >= nObs) are spread unevenly over
    // the clusters, so the marked share among a point's neighbours differs between clusters.
    const rng = new Random(11);
    const d = 10;
    const nObs = 5000;
    const n = nObs + 2 * nObs; // as Scrublet: two simulated points per observed one
    const centres = Array.from({ length: 6 }, () => Array.from({ length: d }, () => 4 * rng.normal()));
    const pts = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const c = i < nObs ? rng.int(6) : rng.int(3); // marked points only in clusters 0–2
      for (let j = 0; j < d; j++) pts[i * d + j] = centres[c][j] + rng.normal();
    }
    const k = 60;
    // brute-force count of marked points (index >= firstMarked) among the k nearest of q in pts[0 .. limit)
    const exactCount = (q: number, limit: number, firstMarked: number) => {
      const dist = [];
      for (let p = 0; p < limit; p++) {
        if (p === q) continue;
        let s = 0;
        for (let j = 0; j < d; j++) s += (pts[q * d + j] - pts[p * d + j]) ** 2;
        dist.push([s, p]);
      }
      dist.sort((a, b) => a[0] - b[0]);
      return dist.slice(0, k).filter(([, p]) => p >= firstMarked).length;
    };
    // below the exact limit: identical to brute force
    const small = 3000;
    const exactSmall = await countMarkedNeighbors(pts.subarray(0, small * d), small, d, k, 1000);
    expect(Array.from(exactSmall.subarray(0, 50))).toEqual(
      Array.from({ length: 50 }, (_, q) => exactCount(q, small, 1000)),
    );
    // its queries run in chunks on the threads: every count is knnExact's, on one thread or two
    const { indices } = knnExact(pts.subarray(0, small * d), small, d, k);
    const fromLists = Array.from(
      { length: small },
      (_, q) => indices.subarray(q * k, q * k + k).filter((p) => p >= 1000).length,
    );
    for (const threads of [1, 2]) {
      const counts = await countMarkedNeighbors(pts.subarray(0, small * d), small, d, k, 1000, { threads });
      expect(Array.from(counts)).toEqual(fromLists);
    }
    // above the limit: approximate, close to the exact counts and deterministic for a seed
    expect(n).toBeGreaterThan(EXACT_KNN_LIMIT);
    const approx = await countMarkedNeighbors(pts, n, d, k, nObs, { seed: 3 });
    let absErr = 0;
    const sample = Array.from({ length: 300 }, (_, i) => i * 49);
    for (const q of sample) absErr += Math.abs(approx[q] - exactCount(q, n, nObs)) / k;
    const meanErr = absErr / sample.length;
    console.log(
      `[knn] inverted-list marked-neighbour fraction, mean |error| vs exact: ${meanErr.toFixed(4)}`,
    );
    // Two equally local sets of k neighbours already differ by ~sqrt(p(1−p)/k) ≈ 0.05 in the
    // fraction (p ≈ 0.8 in clusters 0–2); a scan of the wrong lists would miss by ~0.8.
    expect(meanErr).toBeLessThan(0.04);
    // half of the queries ran in a worker thread; all on this thread gives the same counts
    expect(await countMarkedNeighbors(pts, n, d, k, nObs, { seed: 3, threads: 1 })).toEqual(approx);
  });
  it('the inverted-file search with exactness bounds finds the brute-force neighbours, on one, two or three threads', async () => {
    // 8 Gaussian clusters of different spreads in 12 dims (leading dims wider, as PCs)
    const rng = new Random(21);
    const d = 12;
    const n = 7000;
    const centres = Array.from({ length: 8 }, () =>
      Array.from({ length: d }, (_, j) => (5 * rng.normal()) / (1 + j / 4)),
    );
    const pts = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const c = rng.int(8);
      for (let j = 0; j < d; j++)
        pts[i * d + j] = centres[c][j] + ((0.5 + (c % 3)) * rng.normal()) / (1 + j / 8);
    }
    expect(n).toBeGreaterThan(BRUTE_FORCE_MAX_POINTS);
    const found = new Map<number, KnnResult>();
    for (const k of [15, 90]) {
      const exact = knnExact(pts, n, d, k);
      const two = await knnLists(pts, n, d, k);
      let same = 0;
      let maxDiff = 0;
      for (let i = 0; i < n; i++) {
        const want = new Set(exact.indices.subarray(i * k, i * k + k));
        for (let t = 0; t < k; t++) {
          if (want.has(two.indices[i * k + t])) same++;
          maxDiff = Math.max(maxDiff, Math.abs(two.distances[i * k + t] - exact.distances[i * k + t]));
        }
        expect(two.indices.subarray(i * k, i * k + k)).not.toContain(i);
      }
      // exact up to float32 ties: every neighbour found, distances sorted as brute force
      expect(same / (n * k)).toBeGreaterThanOrEqual(0.9999);
      expect(maxDiff).toBeLessThan(1e-5);
      found.set(k, new KnnResult(n, k, two.indices, two.distances));
      // the queries are claimed in chunks by whichever thread is free: one thread, or three
      // (two workers, claims uneven), give the same lists
      for (const threads of [1, 3]) {
        const other = await knnLists(pts, n, d, k, { threads });
        expect(other.indices).toEqual(two.indices);
        expect(other.distances).toEqual(two.distances);
      }
    }
    // the neighbours step serves k = 15 from a k = 90 search (knn(k)): the same lists
    const cut = found.get(90)!.first(15);
    expect(cut.indices).toEqual(found.get(15)!.indices);
    expect(cut.serialize().runs).toEqual(new Int32Array(n).fill(15));
    await expect(knnLists(pts, 10, d, 10)).rejects.toThrow(/only 10 points/);
  });
  it('sizes the lists by √n up to ~100k points, then by LIST_SIZE; a capped scan stays close to exact', async () => {
    expect(listCount(10_000)).toBe(100);
    expect(listCount(500_000)).toBe(Math.round(500_000 / LIST_SIZE));
    const rng = new Random(4);
    const d = 8;
    const n = 5000;
    const k = 15;
    const centres = Array.from({ length: 5 }, () => Array.from({ length: d }, () => 4 * rng.normal()));
    const pts = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const c = rng.int(5);
      for (let j = 0; j < d; j++) pts[i * d + j] = centres[c][j] + rng.normal();
    }
    const exact = knnExact(pts, n, d, k);
    const recall = (found: Int32Array) => {
      let same = 0;
      for (let i = 0; i < n; i++) {
        const want = new Set(exact.indices.subarray(i * k, i * k + k));
        for (let t = 0; t < k; t++) if (want.has(found[i * k + t])) same++;
      }
      return same / (n * k);
    };
    const full = await knnLists(pts, n, d, k, { maxScannedLists: Infinity });
    const capped = await knnLists(pts, n, d, k, { maxScannedLists: 4 });
    console.log(`[knn] recall of the search capped at 4 lists: ${recall(capped.indices).toFixed(4)}`);
    expect(recall(full.indices)).toBeGreaterThanOrEqual(0.9999);
    expect(recall(capped.indices)).toBeGreaterThan(0.8);
    expect(recall(capped.indices)).toBeLessThanOrEqual(recall(full.indices));
  });
});
