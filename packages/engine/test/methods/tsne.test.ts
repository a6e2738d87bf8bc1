import { describe, expect, it } from 'vitest';
import { fuzzyConnectivities } from '../../src/methods/fuzzy-graph';
import { knnExact } from '../../src/methods/knn';
import { Random } from '../../src/methods/random';
import { tsneAffinities } from '../../src/methods/tsne/affinities';
import { Fft, fftNd } from '../../src/methods/tsne/fft';
import { BarnesHutRepulsion } from '../../src/methods/tsne/barnes-hut';
import { defaultRepulsion, exactRepulsion, FftRepulsion, fftSize } from '../../src/methods/tsne/repulsion';
import { affinityRows, reorderRows, spatialOrder } from '../../src/methods/tsne/order';
import { tsne } from '../../src/methods/tsne/tsne';
import { initScran } from '../../src/scran';
import { trustworthiness } from '../../src/stats/trustworthiness';
import { umapLayout } from '../../src/stats/umap-layout';

/**
 * Ten Gaussian clusters of different spreads in 20 dimensions (a stand-in for a PCA space):
 * row-major n × 20, and the 90-nearest-neighbour lists in scran.js's serialized layout.
 */
function clusters(n: number, seed: number) {
  const d = 20;
  const rng = new Random(seed);
  const centers = Array.from({ length: 10 }, () => Array.from({ length: d }, () => 6 * rng.normal()));
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++)
    for (let t = 0; t < d; t++) x[i * d + t] = centers[i % 10][t] + rng.normal() * (1 + (i % 3) * 0.5);
  const k = 90;
  const { indices, distances } = knnExact(x, n, d, k);
  return { x, d, knn: { runs: new Int32Array(n).fill(k), indices, distances } };
}

/** Relative error ‖a − b‖ / ‖b‖ of an approximated force field against the exact one. */
function relErr(a: Float64Array, b: Float64Array): number {
  let e = 0;
  let s = 0;
  for (let t = 0; t < a.length; t++) {
    e += (a[t] - b[t]) ** 2;
    s += b[t] ** 2;
  }
  return Math.sqrt(e / s);
}

describe('FFT (methods/tsne/fft)', () => {
  it('matches the direct DFT in 1 and 2 dimensions, and inverts', () => {
    const n = 16;
    const rng = new Random(1);
    const re = Float64Array.from({ length: n * n }, () => rng.normal());
    const im = Float64Array.from({ length: n * n }, () => rng.normal());
    const [r0, i0] = [re.slice(), im.slice()];
    fftNd(new Fft(n), 2, re, im);
    let err = 0;
    for (const [u, v] of [
      [0, 0],
      [3, 5],
      [15, 1],
    ]) {
      let sr = 0;
      let si = 0;
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) {
          const ang = (-2 * Math.PI * (u * a + v * b)) / n;
          sr += r0[a * n + b] * Math.cos(ang) - i0[a * n + b] * Math.sin(ang);
          si += r0[a * n + b] * Math.sin(ang) + i0[a * n + b] * Math.cos(ang);
        }
      err = Math.max(err, Math.abs(sr - re[u * n + v]), Math.abs(si - im[u * n + v]));
    }
    expect(err).toBeLessThan(1e-9);
    fftNd(new Fft(n), 2, re, im, true);
    for (let t = 0; t < n * n; t++) expect(re[t] / (n * n)).toBeCloseTo(r0[t], 10);
  });

  it('handles lengths 2^a · 3^b (radix 4, 2 and 3 stages), several vectors at once', () => {
    const rng = new Random(2);
    for (const n of [3, 6, 12, 18, 27, 48, 54, 96]) {
      const width = 3;
      const re = Float64Array.from({ length: n * width }, () => rng.normal());
      const im = Float64Array.from({ length: n * width }, () => rng.normal());
      const [r0, i0] = [re.slice(), im.slice()];
      new Fft(n).run(re, im, false, 0, width);
      let err = 0;
      for (let c = 0; c < width; c++)
        for (let u = 0; u < n; u++) {
          let sr = 0;
          let si = 0;
          for (let a = 0; a < n; a++) {
            const ang = (-2 * Math.PI * u * a) / n;
            sr += r0[a * width + c] * Math.cos(ang) - i0[a * width + c] * Math.sin(ang);
            si += r0[a * width + c] * Math.sin(ang) + i0[a * width + c] * Math.cos(ang);
          }
          err = Math.max(err, Math.abs(sr - re[u * width + c]), Math.abs(si - im[u * width + c]));
        }
      expect(err).toBeLessThan(1e-9);
      new Fft(n).run(re, im, true, 0, width);
      for (let t = 0; t < n * width; t++) expect(im[t] / n).toBeCloseTo(i0[t], 10);
    }
    expect(() => new Fft(10)).toThrow(/2\^a · 3\^b/);
    expect([250, 252, 300, 400, 500].map(fftSize)).toEqual([256, 256, 384, 432, 512]);
  });
});

describe('t-SNE repulsion by FFT-accelerated interpolation (methods/tsne/repulsion)', () => {
  const rng = new Random(4);

  it('agrees with the exact sums in 2D (boxes ~1 wide as openTSNE; finer, closer) and, coarser, in 3D', () => {
    for (const [dims, spread, tol, ints] of [
      [2, 8, 0.04, 1],
      [2, 8, 0.02, 1.5],
      [3, 3, 0.2, 1],
    ] as const) {
      const n = 600;
      const y = Float64Array.from({ length: n * dims }, () => spread * rng.normal());
      const approx = new Float64Array(n * dims);
      const exact = new Float64Array(n * dims);
      const opts = { ...defaultRepulsion(dims), intsInInterval: ints };
      const z = new FftRepulsion(n, dims, opts).compute(y, approx);
      const zExact = exactRepulsion(y, dims, exact);
      expect(relErr(approx, exact)).toBeLessThan(tol);
      expect(Math.abs(z - zExact) / zExact).toBeLessThan(tol);
    }
  });

  it('rejects other dimensions', () => {
    expect(() => new FftRepulsion(10, 4)).toThrow(/dims must be 2 or 3/);
  });
});

describe('t-SNE repulsion by Barnes–Hut (methods/tsne/barnes-hut)', () => {
  it('agrees with the exact sums in 2D and 3D, the same on every call', () => {
    const rng = new Random(11);
    for (const dims of [2, 3] as const) {
      const n = 700;
      // clumps of points as a layout forms them, plus a few far away
      const y = Float64Array.from({ length: n * dims }, (_, t) => ((t / dims) % 7) * 4 + rng.normal());
      for (let a = 0; a < dims; a++) y[a] = 200;
      const approx = new Float64Array(n * dims);
      const exact = new Float64Array(n * dims);
      const bh = new BarnesHutRepulsion(n, dims);
      const z = bh.compute(y, approx);
      const zExact = exactRepulsion(y, dims, exact);
      expect(relErr(approx, exact)).toBeLessThan(0.03);
      expect(Math.abs(z - zExact) / zExact).toBeLessThan(0.02);
      const again = new Float64Array(n * dims);
      expect(bh.compute(y, again)).toBe(z);
      expect(Array.from(again)).toEqual(Array.from(approx));
    }
  });

  it('keeps coincident points in one leaf and leaves each point out of its own sum', () => {
    for (const dims of [2, 3] as const) {
      const n = 40;
      const y = new Float64Array(n * dims).fill(1.5); // every point at the same place
      const out = new Float64Array(n * dims);
      const z = new BarnesHutRepulsion(n, dims).compute(y, out);
      expect(z).toBeCloseTo(n * (n - 1), 9); // q = 1 for every ordered pair i ≠ j
      expect(out.every((v) => v === 0)).toBe(true);
    }
    expect(new BarnesHutRepulsion(1, 2).compute(new Float64Array([3, 4]), new Float64Array(2))).toBe(0);
  });

  it('rejects other dimensions', () => {
    expect(() => new BarnesHutRepulsion(10, 4 as 2)).toThrow(/dims must be 2 or 3/);
  });
});

describe('spatial renumbering of the t-SNE points (methods/tsne/order)', () => {
  it('is a permutation that keeps every affinity edge and groups nearby points', () => {
    const n = 500;
    const { knn } = clusters(n, 3);
    const aff = tsneAffinities(knn, 30);
    const rng = new Random(5);
    const y = Float64Array.from({ length: 2 * n }, () => rng.normal());
    const order = spatialOrder(y, n, 2);
    expect(Array.from(order).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    const rank = new Int32Array(n);
    order.forEach((old, i) => (rank[old] = i));
    const rows = reorderRows(affinityRows(aff), order, rank);
    const key = (i: number, j: number, p: number) => `${Math.min(i, j)}-${Math.max(i, j)}-${p}`;
    const before = Array.from(aff.rows, (i, e) => key(i, aff.cols[e], aff.p[e])).sort();
    const after: string[] = [];
    for (let i = 0; i < n; i++)
      for (let e = rows.start[i]; e < rows.start[i + 1]; e++)
        after.push(key(order[i], order[rows.cols[e]], rows.p[e]));
    expect(after.sort()).toEqual(before);
    // consecutive points in the new order are much closer than consecutive points before
    const step = (at: (i: number) => number) => {
      let s = 0;
      for (let i = 1; i < n; i++)
        s += Math.hypot(y[2 * at(i)] - y[2 * at(i - 1)], y[2 * at(i) + 1] - y[2 * at(i - 1) + 1]);
      return s / (n - 1);
    };
    expect(step((i) => order[i])).toBeLessThan(0.3 * step((i) => i));
  });
});

describe('t-SNE (methods/tsne) against the previous implementation (scran.js / qdtsne)', () => {
  const n = 800;
  const { x, d, knn } = clusters(n, 7);
  const aff = tsneAffinities(knn, 30);

  it('calibrates symmetric affinities that sum to 1', () => {
    let s = 0;
    for (const p of aff.p) s += 2 * p; // each pair stands for p_ij and p_ji
    expect(s).toBeCloseTo(1, 6);
    expect(aff.rows.length).toBeLessThan(n * 90);
  });

  it('is as trustworthy as qdtsne (Barnes–Hut at this size), the FFT path close behind; deterministic', async () => {
    const y = tsne(aff, { dims: 2, init: x });
    expect(Array.from(tsne(aff, { dims: 2, init: x }))).toEqual(Array.from(y));
    const scran = await initScran();
    const index = scran.buildNeighborSearchIndex(x, { numberOfDims: d, numberOfCells: n });
    const nn = scran.findNearestNeighbors(index, 90);
    const old = scran.runTsne(nn, { perplexity: 30, maxIterations: 1000 });
    nn.free();
    index.free();
    const oldY = Float64Array.from({ length: 2 * n }, (_, t) => (t % 2 ? old.y : old.x)[t >> 1]);
    const tNew = trustworthiness(x, d, y, 2, 15);
    const tOld = trustworthiness(x, d, oldY, 2, 15);
    // the FFT path forced at this size, shorter schedule (the grid cost is fixed per iteration)
    const short = { earlyExaggerationIter: 100, nIter: 100, init: x };
    const yFft = tsne(aff, { ...short, dims: 2, repulsion: defaultRepulsion(2) });
    const y3 = tsne(aff, { dims: 3, init: x }); // Barnes–Hut (the 3D step's range)
    const tFft = trustworthiness(x, d, yFft, 2, 15);
    const t3 = trustworthiness(x, d, y3, 3, 15);
    console.log(
      `trustworthiness(k=15): qdtsne ${tOld.toFixed(4)}, ours ${tNew.toFixed(4)}, FFT 2D ${tFft.toFixed(4)}, 3D ${t3.toFixed(4)}`,
    );
    expect(tNew).toBeGreaterThan(tOld - 0.01);
    expect(tFft).toBeGreaterThan(tOld - 0.02);
    expect(t3).toBeGreaterThan(tOld - 0.02);
  }, 240_000);
});

describe('UMAP layout (stats/umap-layout) against the previous 2D implementation (scran.js / umappp)', () => {
  it('is as trustworthy as umappp on the same 15-neighbour graph', async () => {
    const n = 1500;
    const { x, d, knn } = clusters(n, 11);
    const k = 14;
    const indices = new Int32Array(n * k);
    const distances = new Float64Array(n * k);
    for (let i = 0; i < n; i++)
      for (let t = 0; t < k; t++) {
        indices[i * k + t] = knn.indices[i * 90 + t];
        distances[i * k + t] = knn.distances[i * 90 + t];
      }
    const graph = fuzzyConnectivities({ runs: new Int32Array(n).fill(k), indices, distances });
    const y = umapLayout(graph, { dims: 2, minDist: 0.3, epochs: 500, seed: 42 });
    const scran = await initScran();
    const index = scran.buildNeighborSearchIndex(x, { numberOfDims: d, numberOfCells: n });
    const nn = scran.findNearestNeighbors(index, 15);
    const old = scran.runUmap(nn, { neighbors: 15, minDist: 0.3, epochs: 500 });
    nn.free();
    index.free();
    const oldY = Float64Array.from({ length: 2 * n }, (_, t) => (t % 2 ? old.y : old.x)[t >> 1]);
    const tNew = trustworthiness(x, d, y, 2, 15);
    const tOld = trustworthiness(x, d, oldY, 2, 15);
    console.log(`UMAP trustworthiness(k=15): umappp ${tOld.toFixed(4)}, ours ${tNew.toFixed(4)}`);
    expect(tNew).toBeGreaterThan(tOld - 0.01);
  }, 60_000);
});

describe('exact repulsion (methods/tsne/repulsion exactRepulsion)', () => {
  it('the 2D and 3D fast paths match the direct pair sums', () => {
    const rng = new Random(8);
    for (const dims of [2, 3]) {
      const n = 50;
      const y = Float64Array.from({ length: n * dims }, () => 3 * rng.normal());
      const out = new Float64Array(n * dims);
      const z = exactRepulsion(y, dims, out);
      let zRef = 0;
      const ref = new Float64Array(n * dims);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          if (i === j) continue;
          let d2 = 0;
          for (let a = 0; a < dims; a++) d2 += (y[i * dims + a] - y[j * dims + a]) ** 2;
          const q = 1 / (1 + d2);
          zRef += q;
          for (let a = 0; a < dims; a++) ref[i * dims + a] += q * q * (y[i * dims + a] - y[j * dims + a]);
        }
      expect(z).toBeCloseTo(zRef, 9);
      for (let t = 0; t < ref.length; t++) expect(out[t]).toBeCloseTo(ref[t], 9);
    }
  });
});
