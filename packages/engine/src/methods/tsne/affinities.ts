/** Symmetric t-SNE input affinities as an undirected edge list (each pair once). */
export interface TsneAffinities {
  nNodes: number;
  /** Edge endpoints and p_ij (Σ over both directions of all edges = 1). */
  rows: Int32Array;
  cols: Int32Array;
  p: Float64Array;
}

/**
 * Perplexity-calibrated affinities from a k-nearest-neighbour result (openTSNE PerplexityBasedNN
 * semantics): for each cell, p_j|i ∝ exp(−β d²ᵢⱼ) over its k neighbours with β found by bisection
 * so that the entropy is log(perplexity); then pᵢⱼ = (p_j|i + p_i|j) / 2n. `runs[i]` neighbours of
 * cell i are at indices/distances[offset…] (scran.js NeighborResults.serialize layout; distances
 * are Euclidean). Returned pairs are unique (a mutual neighbour pair is one edge).
 */
export function tsneAffinities(
  knn: { runs: Int32Array; indices: Int32Array; distances: Float64Array | Float32Array },
  perplexity: number,
): TsneAffinities {
  const n = knn.runs.length;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + knn.runs[i];
  const cond = new Float64Array(start[n]);
  const target = Math.log(perplexity);
  for (let i = 0; i < n; i++) calibrate(knn.distances, start[i], start[i + 1], target, cond);
  // sorted neighbour lists to look up p_i|j for the reverse direction
  const sortedCols = new Int32Array(start[n]);
  const sortedAt = new Int32Array(start[n]);
  for (let i = 0; i < n; i++) {
    const order = Array.from({ length: start[i + 1] - start[i] }, (_, t) => start[i] + t).sort(
      (a, b) => knn.indices[a] - knn.indices[b],
    );
    for (let t = 0; t < order.length; t++) {
      sortedCols[start[i] + t] = knn.indices[order[t]];
      sortedAt[start[i] + t] = order[t];
    }
  }
  const reverse = (j: number, i: number): number => {
    let a = start[j];
    let b = start[j + 1] - 1;
    while (a <= b) {
      const m = (a + b) >> 1;
      const v = sortedCols[m];
      if (v === i) return sortedAt[m];
      if (v < i) a = m + 1;
      else b = m - 1;
    }
    return -1;
  };
  // the edges each row keeps (a mutual pair under its larger end's row is taken from the other):
  // counted first so that the edge arrays are allocated at their size (no over-allocation and no
  // trimmed copies: at 100k cells × 90 neighbours that was ~200 MB more at the t-SNE's start)
  const keep = (i: number, e: number): number => {
    const j = knn.indices[e];
    if (j === i) return -2;
    const r = reverse(j, i);
    return r >= 0 && j < i ? -2 : r;
  };
  let m = 0;
  for (let i = 0; i < n; i++) for (let e = start[i]; e < start[i + 1]; e++) if (keep(i, e) !== -2) m++;
  const rows = new Int32Array(m);
  const cols = new Int32Array(m);
  const p = new Float64Array(m);
  m = 0;
  const norm = 1 / (2 * n);
  for (let i = 0; i < n; i++) {
    for (let e = start[i]; e < start[i + 1]; e++) {
      const r = keep(i, e);
      if (r === -2) continue;
      rows[m] = i;
      cols[m] = knn.indices[e];
      p[m++] = (cond[e] + (r >= 0 ? cond[r] : 0)) * norm;
    }
  }
  // edges in row order (rows non-decreasing): the t-SNE's compressed rows share cols and p (order.ts)
  return { nNodes: n, rows, cols, p };
}

/** Bisection on β (as openTSNE / sklearn: 100 steps at most, tolerance 1e-5 on the entropy). */
function calibrate(
  dist: Float64Array | Float32Array,
  from: number,
  to: number,
  target: number,
  out: Float64Array,
): void {
  let beta = 1;
  let lo = -Infinity;
  let hi = Infinity;
  // distances are shifted by the nearest one for numerical range (the normalisation cancels it)
  const d0 = to > from ? dist[from] * dist[from] : 0;
  for (let step = 0; step < 100; step++) {
    let sum = 0;
    let sumDP = 0;
    for (let e = from; e < to; e++) {
      const d2 = dist[e] * dist[e] - d0;
      const w = Math.exp(-beta * d2);
      out[e] = w;
      sum += w;
      sumDP += d2 * w;
    }
    if (sum === 0) sum = 1e-300;
    const entropy = Math.log(sum) + (beta * sumDP) / sum;
    for (let e = from; e < to; e++) out[e] /= sum;
    const diff = entropy - target;
    if (Math.abs(diff) < 1e-5) break;
    if (diff > 0) {
      lo = beta;
      beta = hi === Infinity ? beta * 2 : (beta + hi) / 2;
    } else {
      hi = beta;
      beta = lo === -Infinity ? beta / 2 : (beta + lo) / 2;
    }
  }
}
