import type { WeightedGraph } from '../methods/fuzzy-graph';
import { Random } from '../methods/random';

/**
 * A compact UMAP layout (McInnes et al. 2018) in any dimension over the fuzzy simplicial set of a
 * kNN graph (methods/fuzzy-graph: umap-learn's membership strengths and fuzzy union, the same graph
 * the clustering uses), with typed arrays only (umap-js keeps Map-based matrices: ~3 GB at 20k
 * cells). As umap-learn: edges weaker than max/epochs dropped, every symmetric edge in both
 * directions, the a/b curve fitted to min_dist (spread 1), random initialisation in [−10, 10], SGD
 * with 5 negative samples per positive edge, learning rate 1 decaying linearly, gradients clipped
 * at 4.
 */
export function umapLayout(g: WeightedGraph, opts: { dims: number; minDist: number; epochs: number; seed: number }): Float32Array {
  const { rows, cols, weights } = edgeList(g, opts.epochs);
  const [a, b] = fitAB(opts.minDist);
  const n = g.nNodes;
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

/** The graph's edges in both directions as COO, without those below max weight / epochs (umap-learn). */
function edgeList(g: WeightedGraph, epochs: number): { rows: Int32Array; cols: Int32Array; weights: Float32Array } {
  let wMax = 0;
  for (const w of g.weights) if (w > wMax) wMax = w;
  const floor = wMax / Math.max(1, epochs);
  let m = 0;
  for (const w of g.weights) if (w >= floor && w > 0) m++;
  const rows = new Int32Array(m);
  const cols = new Int32Array(m);
  const weights = new Float32Array(m);
  let e = 0;
  for (let i = 0; i < g.nNodes; i++) {
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
      const w = g.weights[p];
      if (!(w >= floor && w > 0)) continue;
      rows[e] = i;
      cols[e] = g.indices[p];
      weights[e++] = w;
    }
  }
  return { rows, cols, weights };
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
