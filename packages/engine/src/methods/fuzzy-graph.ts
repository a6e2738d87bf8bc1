/**
 * scanpy `pp.neighbors(method='umap')` connectivities (docs/methods/pipeline.md#neighbours-and-clustering): umap-learn's
 * `fuzzy_simplicial_set` over a k-nearest-neighbour result, as a symmetric weighted CSR graph.
 * Our own TypeScript because scran.js only builds SNN graphs and cannot cluster a custom graph.
 *
 * Per cell i, with its k nearest neighbours INCLUDING itself (scanpy's n_neighbors counts the
 * cell): rho_i = distance to the nearest neighbour at a positive distance, sigma_i found by
 * binary search so that Σ_{j≠self} exp(−max(0, d_ij − rho_i)/sigma_i) = log2(k) (umap-learn
 * `smooth_knn_dist`, 64 steps, tolerance 1e-5, floor 1e-3 × mean distance), membership
 * a_ij = exp(−max(0, d_ij − rho_i)/sigma_i), then the fuzzy union a + aᵀ − a∘aᵀ.
 */

/** Undirected weighted graph in CSR form: row i's neighbours are indices[indptr[i]..indptr[i+1]). */
export interface WeightedGraph {
  nNodes: number;
  indptr: Int32Array;
  indices: Int32Array;
  weights: Float64Array;
}

/** k-nearest-neighbour lists, the cell itself excluded, nearest first (scran.js NeighborResults.serialize()). */
export interface KnnLists {
  /** Number of neighbours of each cell. */
  runs: Int32Array;
  /** Neighbour indices, cell after cell. */
  indices: Int32Array;
  /** Euclidean distances matching `indices`, ascending within a cell. */
  distances: Float64Array;
}

const SMOOTH_K_TOLERANCE = 1e-5;
const MIN_K_DIST_SCALE = 1e-3;
const BINARY_SEARCH_STEPS = 64;

/**
 * Fuzzy-simplicial-set connectivities from kNN lists that exclude the cell itself.
 * `nNeighbors` counts the cell, as scanpy does (15 → the cell + its 14 nearest neighbours);
 * cells with fewer listed neighbours use what they have.
 */
export function fuzzyConnectivities(knn: KnnLists, opts: { nNeighbors?: number } = {}): WeightedGraph {
  const { nNeighbors = 15, ...rest } = opts;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new Error(`fuzzyConnectivities: unknown option(s) ${unknown.join(', ')}`);
  if (!Number.isInteger(nNeighbors) || nNeighbors < 2)
    throw new Error(`fuzzyConnectivities: nNeighbors must be an integer ≥ 2 (got ${nNeighbors})`);
  const n = knn.runs.length;
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + knn.runs[i];
  if (offsets[n] !== knn.indices.length || knn.distances.length !== knn.indices.length) {
    throw new Error('fuzzyConnectivities: runs, indices and distances do not match');
  }
  const used = (i: number) => Math.min(knn.runs[i], nNeighbors - 1);
  let meanAll = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    for (let p = offsets[i]; p < offsets[i] + used(i); p++) meanAll += knn.distances[p];
    count += used(i) + 1; // the cell itself, at distance 0
  }
  meanAll /= Math.max(1, count);
  const target = Math.log2(nNeighbors);

  // Directed memberships, row by row (at most nNeighbors − 1 per cell).
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i] + used(i);
  const cols = new Int32Array(rowPtr[n]);
  const vals = new Float64Array(rowPtr[n]);
  for (let i = 0; i < n; i++) {
    const start = offsets[i];
    const m = used(i);
    let rho = 0;
    let mean = 0;
    for (let p = start; p < start + m; p++) {
      if (rho === 0 && knn.distances[p] > 0) rho = knn.distances[p];
      mean += knn.distances[p];
    }
    mean /= m + 1;
    const sigma = smoothSigma(knn.distances, start, m, rho, target, rho > 0 ? mean : meanAll);
    for (let q = 0; q < m; q++) {
      const d = knn.distances[start + q] - rho;
      cols[rowPtr[i] + q] = knn.indices[start + q];
      vals[rowPtr[i] + q] = d <= 0 || sigma === 0 ? 1 : Math.exp(-d / sigma);
    }
  }
  return fuzzyUnion(n, rowPtr, cols, vals);
}

/** umap-learn smooth_knn_dist for one cell: the sigma whose smoothed neighbour count is log2(k). */
function smoothSigma(
  dist: Float64Array,
  start: number,
  m: number,
  rho: number,
  target: number,
  floorMean: number,
): number {
  let lo = 0;
  let hi = Infinity;
  let mid = 1;
  for (let step = 0; step < BINARY_SEARCH_STEPS; step++) {
    let psum = 0;
    for (let p = start; p < start + m; p++) {
      const d = dist[p] - rho;
      psum += d > 0 ? Math.exp(-d / mid) : 1;
    }
    if (Math.abs(psum - target) < SMOOTH_K_TOLERANCE) break;
    if (psum > target) {
      hi = mid;
      mid = (lo + hi) / 2;
    } else {
      lo = mid;
      mid = hi === Infinity ? mid * 2 : (lo + hi) / 2;
    }
  }
  return Math.max(mid, MIN_K_DIST_SCALE * floorMean);
}

/**
 * a + aᵀ − a∘aᵀ of a directed sparse matrix (rows may not repeat a column), as a CSR graph with
 * sorted columns and no explicit zeros. The union is associative (1 − Π(1 − w)), so an entry
 * present in both directions combines exactly as the dense formula.
 */
function fuzzyUnion(n: number, rowPtr: Int32Array, cols: Int32Array, vals: Float64Array): WeightedGraph {
  const count = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      if (cols[p] === i || vals[p] === 0) continue;
      count[i + 1]++;
      count[cols[p] + 1]++;
    }
  }
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const fill = count.slice(0, n);
  const tmpCols = new Int32Array(count[n]);
  const tmpVals = new Float64Array(count[n]);
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const j = cols[p];
      if (j === i || vals[p] === 0) continue;
      tmpCols[fill[i]] = j;
      tmpVals[fill[i]++] = vals[p];
      tmpCols[fill[j]] = i;
      tmpVals[fill[j]++] = vals[p];
    }
  }
  // Sort each row by column (rows are short: insertion sort) and merge duplicates.
  const indptr = new Int32Array(n + 1);
  let out = 0;
  for (let i = 0; i < n; i++) {
    const a = count[i];
    const b = count[i + 1];
    for (let p = a + 1; p < b; p++) {
      const c = tmpCols[p];
      const v = tmpVals[p];
      let q = p - 1;
      while (q >= a && tmpCols[q] > c) {
        tmpCols[q + 1] = tmpCols[q];
        tmpVals[q + 1] = tmpVals[q];
        q--;
      }
      tmpCols[q + 1] = c;
      tmpVals[q + 1] = v;
    }
    for (let p = a; p < b; p++) {
      if (out > indptr[i] && tmpCols[out - 1] === tmpCols[p]) {
        tmpVals[out - 1] = tmpVals[out - 1] + tmpVals[p] - tmpVals[out - 1] * tmpVals[p];
      } else {
        tmpCols[out] = tmpCols[p];
        tmpVals[out++] = tmpVals[p];
      }
    }
    indptr[i + 1] = out;
  }
  return { nNodes: n, indptr, indices: tmpCols.slice(0, out), weights: tmpVals.slice(0, out) };
}
