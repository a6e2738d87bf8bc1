import { describe, expect, it } from 'vitest';
import { fuzzyConnectivities, type KnnLists } from '../../src/methods/fuzzy-graph';
import { knnExact } from '../../src/methods/knn';
import { Random } from '../../src/methods/random';

/** kNN lists (self excluded) of random points, in the scran.js serialize() layout. */
function randomKnn(n: number, d: number, k: number, seed: number): KnnLists {
  const rng = new Random(seed);
  const coords = Float64Array.from({ length: n * d }, () => rng.normal());
  const { indices, distances } = knnExact(coords, n, d, k);
  return { runs: new Int32Array(n).fill(k), indices, distances };
}

/**
 * The UMAP fuzzy simplicial set written densely from its definition: sigma by bisection on a
 * log scale (no shortcuts), memberships exp(−(d − rho)/sigma), then A + Aᵀ − A∘Aᵀ.
 */
function denseReference(knn: KnnLists, nNeighbors: number): Float64Array[] {
  const n = knn.runs.length;
  const k = knn.runs[0];
  const m = Math.min(k, nNeighbors - 1);
  const a = Array.from({ length: n }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    const d = Array.from(knn.distances.subarray(i * k, i * k + m));
    const rho = d.find((x) => x > 0) ?? 0;
    const f = (s: number) =>
      d.reduce((acc, x) => acc + (x - rho > 0 ? Math.exp(-(x - rho) / s) : 1), 0) - Math.log2(nNeighbors);
    let lo = -30;
    let hi = 30;
    for (let it = 0; it < 200; it++) {
      const mid = (lo + hi) / 2;
      if (f(Math.exp(mid)) > 0) hi = mid;
      else lo = mid;
    }
    const sigma = Math.exp(lo);
    for (let q = 0; q < m; q++) a[i][knn.indices[i * k + q]] = Math.exp(-Math.max(0, d[q] - rho) / sigma);
  }
  return a.map((row, i) => row.map((x, j) => x + a[j][i] - x * a[j][i]));
}

describe('fuzzyConnectivities (scanpy pp.neighbors / umap-learn fuzzy_simplicial_set)', () => {
  it('matches the dense definition on random points', () => {
    const knn = randomKnn(120, 5, 9, 4);
    const g = fuzzyConnectivities(knn, { nNeighbors: 10 });
    const ref = denseReference(knn, 10);
    let nonZero = 0;
    for (let i = 0; i < 120; i++) for (let j = 0; j < 120; j++) if (ref[i][j] > 0) nonZero++;
    expect(g.indices.length).toBe(nonZero);
    let maxErr = 0;
    for (let i = 0; i < g.nNodes; i++) {
      for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++)
        maxErr = Math.max(maxErr, Math.abs(g.weights[p] - ref[i][g.indices[p]]));
    }
    expect(maxErr).toBeLessThan(1e-4);
  });

  it('is symmetric, without self-loops, with weights in (0, 1] and sorted columns', () => {
    const g = fuzzyConnectivities(randomKnn(200, 3, 15, 9));
    const at = new Map<string, number>();
    for (let i = 0; i < g.nNodes; i++) {
      for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
        at.set(`${i},${g.indices[p]}`, g.weights[p]);
        expect(g.indices[p]).not.toBe(i);
        if (p > g.indptr[i]) expect(g.indices[p]).toBeGreaterThan(g.indices[p - 1]);
      }
    }
    for (const [key, w] of at) {
      const [i, j] = key.split(',');
      expect(at.get(`${j},${i}`)).toBe(w);
      expect(w).toBeGreaterThan(0);
      expect(w).toBeLessThanOrEqual(1);
    }
    // The nearest neighbour of every cell gets membership 1 (d = rho).
    const knn = randomKnn(200, 3, 15, 9);
    for (let i = 0; i < 200; i++) expect(at.get(`${i},${knn.indices[i * 15]}`)).toBeCloseTo(1, 12);
  });

  it('counts the cell itself in nNeighbors and uses only that many listed neighbours', () => {
    const knn = randomKnn(60, 4, 14, 2);
    const g = fuzzyConnectivities(knn, { nNeighbors: 5 });
    // Every directed edge comes from one of the 4 nearest listed neighbours, in one direction or the other.
    const near = new Set<string>();
    for (let i = 0; i < 60; i++) for (let q = 0; q < 4; q++) near.add(`${i},${knn.indices[i * 14 + q]}`);
    for (let i = 0; i < 60; i++) {
      for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
        expect(near.has(`${i},${g.indices[p]}`) || near.has(`${g.indices[p]},${i}`)).toBe(true);
      }
    }
  });

  it('takes rho from the first positive distance when a cell has a duplicate', () => {
    // 1-D points 0, 0, 1, 3: cells 0 and 1 coincide.
    const knn: KnnLists = {
      runs: Int32Array.from([2, 2, 2, 2]),
      indices: Int32Array.from([1, 2, 0, 2, 0, 1, 2, 0]),
      distances: Float64Array.from([0, 1, 0, 1, 1, 1, 2, 3]),
    };
    const g = fuzzyConnectivities(knn, { nNeighbors: 3 });
    const w = (i: number, j: number) => {
      for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) if (g.indices[p] === j) return g.weights[p];
      return 0;
    };
    expect(w(0, 1)).toBe(1);
    expect(w(0, 2)).toBe(1);
    expect(w(3, 2)).toBe(1);
    expect(w(2, 0)).toBe(1);
    // Cell 3: rho = 2, so 1 + exp(−1/sigma) = log2(3) and its membership in cell 0 is log2(3) − 1;
    // cell 0 does not list cell 3, so the union keeps that value in both directions.
    expect(w(3, 0)).toBeCloseTo(Math.log2(3) - 1, 4);
    expect(w(0, 3)).toBe(w(3, 0));
  });

  it('rejects bad options and inconsistent lists', () => {
    const knn = randomKnn(20, 2, 5, 1);
    expect(() => fuzzyConnectivities(knn, { nNeighbors: 1 })).toThrow(/nNeighbors/);
    expect(() => fuzzyConnectivities(knn, { k: 3 } as never)).toThrow(/unknown option/);
    expect(() => fuzzyConnectivities({ ...knn, distances: knn.distances.subarray(1) })).toThrow(
      /do not match/,
    );
  });
});
