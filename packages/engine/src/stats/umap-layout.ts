import { Random } from '../methods/random';

/**
 * A compact UMAP layout (McInnes et al. 2018) in any dimension over a precomputed kNN graph, with
 * typed arrays only (umap-js keeps Map-based matrices: ~3 GB at 20k cells). Steps as umap-learn:
 * per-cell ρ (nearest distance) and σ (binary search to log2(k)), fuzzy union W + Wᵀ − W∘Wᵀ,
 * the a/b curve fitted to min_dist (spread 1), random initialisation in [−10, 10], and SGD with
 * 5 negative samples per positive edge, learning rate 1 decaying linearly, gradients clipped at 4.
 */
export interface KnnGraph {
  n: number;
  k: number;
  /** Row-major n × k neighbour indices (self excluded) and distances, nearest first. */
  indices: Int32Array;
  distances: Float64Array;
}

export function umapLayout(g: KnnGraph, opts: { dims: number; minDist: number; epochs: number; seed: number }): Float32Array {
  const { rows, cols, weights } = fuzzyGraph(g);
  const [a, b] = fitAB(opts.minDist);
  const { n } = g;
  const dims = opts.dims;
  const rng = new Random(opts.seed);
  const y = new Float32Array(n * dims);
  for (let i = 0; i < y.length; i++) y[i] = 20 * rng.uniform() - 10;
  let wMax = 0;
  for (const w of weights) if (w > wMax) wMax = w;
  const nEdges = rows.length;
  const perSample = Float64Array.from(weights, (w) => (w > 0 ? wMax / w : Infinity));
  const nextSample = perSample.slice();
  const negRate = 5;
  const perNeg = Float64Array.from(perSample, (e) => e / negRate);
  const nextNeg = perNeg.slice();
  const clip = (v: number) => (v > 4 ? 4 : v < -4 ? -4 : v);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    const alpha = 1 - epoch / opts.epochs;
    for (let e = 0; e < nEdges; e++) {
      if (nextSample[e] > epoch + 1) continue;
      const i = rows[e] * dims;
      const j = cols[e] * dims;
      let d2 = 0;
      for (let t = 0; t < dims; t++) {
        const diff = y[i + t] - y[j + t];
        d2 += diff * diff;
      }
      if (d2 > 0) {
        const pb1 = Math.pow(d2, b - 1); // d2^b = d2 · d2^(b−1): one pow per edge
        const coef = (-2 * a * b * pb1) / (a * pb1 * d2 + 1);
        for (let t = 0; t < dims; t++) {
          const grad = clip(coef * (y[i + t] - y[j + t])) * alpha;
          y[i + t] += grad;
          y[j + t] -= grad;
        }
      }
      nextSample[e] += perSample[e];
      const nNeg = Math.floor((epoch + 1 - nextNeg[e]) / perNeg[e]) + 1;
      for (let s = 0; s < nNeg; s++) {
        const kIdx = rng.int(n) * dims;
        if (kIdx === i) continue;
        let dn = 0;
        for (let t = 0; t < dims; t++) {
          const diff = y[i + t] - y[kIdx + t];
          dn += diff * diff;
        }
        const coef = dn > 0 ? (2 * b) / ((0.001 + dn) * (a * Math.pow(dn, b) + 1)) : 0;
        for (let t = 0; t < dims; t++) y[i + t] += (coef > 0 ? clip(coef * (y[i + t] - y[kIdx + t])) : 4) * alpha;
      }
      nextNeg[e] += nNeg * perNeg[e];
    }
  }
  return y;
}

/** Symmetric fuzzy simplicial set as COO edges (each undirected edge once per direction). */
function fuzzyGraph(g: KnnGraph): { rows: Int32Array; cols: Int32Array; weights: Float32Array } {
  const { n, k, indices, distances } = g;
  const w = new Float32Array(n * k);
  const target = Math.log2(k + 1); // umap-learn counts the cell itself among its k neighbours
  for (let i = 0; i < n; i++) {
    const base = i * k;
    let rho = 0;
    for (let j = 0; j < k; j++) if (distances[base + j] > 0) {
      rho = distances[base + j];
      break;
    }
    let lo = 0;
    let hi = Infinity;
    let sigma = 1;
    for (let it = 0; it < 64; it++) {
      let sum = 1; // the self edge has weight 1
      for (let j = 0; j < k; j++) sum += Math.exp(-Math.max(0, distances[base + j] - rho) / sigma);
      if (Math.abs(sum - target) < 1e-5) break;
      if (sum > target) {
        hi = sigma;
        sigma = (lo + hi) / 2;
      } else {
        lo = sigma;
        sigma = hi === Infinity ? sigma * 2 : (lo + hi) / 2;
      }
    }
    for (let j = 0; j < k; j++) w[base + j] = Math.exp(-Math.max(0, distances[base + j] - rho) / sigma);
  }
  // Union: for every directed edge i→j with weight p, and its reverse q (0 if absent): p + q − pq.
  const keyOf = (i: number, j: number) => i * n + j;
  const keys = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) keys[i * k + j] = keyOf(i, indices[i * k + j]);
  const order = Uint32Array.from({ length: n * k }, (_, t) => t).sort((x, y) => keys[x] - keys[y]);
  const sortedKeys = Float64Array.from(order, (t) => keys[t]);
  const find = (key: number): number => {
    let lo = 0;
    let hi = sortedKeys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sortedKeys[mid] === key) return order[mid];
      if (sortedKeys[mid] < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  const rows: number[] = [];
  const cols: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let jj = 0; jj < k; jj++) {
      const j = indices[i * k + jj];
      if (j === i) continue;
      const p = w[i * k + jj];
      const rev = find(keyOf(j, i));
      const q = rev >= 0 ? w[rev] : 0;
      const v = p + q - p * q;
      rows.push(i, j);
      cols.push(j, i);
      // When the reverse edge exists it is emitted from j as well; halve to count each pair once.
      weights.push(rev >= 0 ? v / 2 : v, rev >= 0 ? v / 2 : v);
    }
  }
  return { rows: Int32Array.from(rows), cols: Int32Array.from(cols), weights: Float32Array.from(weights) };
}

/** a, b of 1/(1 + a·d^(2b)) fitted to the UMAP target curve for min_dist (spread 1), by grid search. */
const abCache = new Map<number, [number, number]>();

export function fitAB(minDist: number): [number, number] {
  const cached = abCache.get(minDist);
  if (cached) return cached;
  const xs = Array.from({ length: 300 }, (_, i) => (3 * (i + 1)) / 300);
  const ys = xs.map((x) => (x < minDist ? 1 : Math.exp(-(x - minDist))));
  let best: [number, number] = [1, 1];
  let bestErr = Infinity;
  for (let bi = 0; bi <= 150; bi++) {
    const b = 0.5 + bi * 0.01;
    for (let ai = 0; ai <= 400; ai++) {
      const a = 0.1 + ai * 0.01;
      let err = 0;
      for (let t = 0; t < xs.length; t++) err += (1 / (1 + a * xs[t] ** (2 * b)) - ys[t]) ** 2;
      if (err < bestErr) {
        bestErr = err;
        best = [a, b];
      }
    }
  }
  abCache.set(minDist, best);
  return best;
}
