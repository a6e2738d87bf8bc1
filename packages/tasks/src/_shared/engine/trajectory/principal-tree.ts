import { primMst } from './common';

/**
 * The principal-tree steps that monocle 2's DDRTree and monocle 3's SimplePPT share, on row-major
 * n × 2 points and K × 2 centres: the initial k-means (Lloyd from evenly spaced points), the MST
 * over the centres with its Laplacian and length term, the per-point soft assignment, the nearest
 * centre of a point and its projection on a tree edge.
 */

/** Squared Euclidean distance between point i of a and point j of b. */
export const sqDist2d = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number => {
  const dx = a[2 * i]! - b[2 * j]!;
  const dy = a[2 * i + 1]! - b[2 * j + 1]!;
  return dx * dx + dy * dy;
};

/** K centres at evenly spaced points of X (R: seq(1, n, length.out = K)). */
export function evenlySpacedCentres(X: ArrayLike<number>, n: number, K: number): Float64Array {
  const centers = new Float64Array(K * 2);
  for (let c = 0; c < K; c++) {
    const i = Math.round((c * (n - 1)) / Math.max(1, K - 1));
    centers[2 * c] = X[2 * i]!;
    centers[2 * c + 1] = X[2 * i + 1]!;
  }
  return centers;
}

/** Lloyd's k-means from `centers` (updated in place) for at most `maxIter` rounds; the assignment. */
export function lloyd2d(
  X: Float64Array,
  n: number,
  centers: Float64Array,
  K: number,
  maxIter: number,
): Int32Array {
  const assign = new Int32Array(n).fill(-1);
  for (let it = 0; it < maxIter; it++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const best = nearestCentre(K, (c) => sqDist2d(X, i, centers, c));
      if (assign[i] !== best) {
        assign[i] = best;
        changed++;
      }
    }
    if (!changed) break;
    const sum = new Float64Array(K * 2);
    const cnt = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const a = assign[i]!;
      sum[2 * a] += X[2 * i]!;
      sum[2 * a + 1] += X[2 * i + 1]!;
      cnt[a]++;
    }
    for (let c = 0; c < K; c++) {
      if (!cnt[c]) continue;
      centers[2 * c] = sum[2 * c]! / cnt[c]!;
      centers[2 * c + 1] = sum[2 * c + 1]! / cnt[c]!;
    }
  }
  return assign;
}

/** The centre with the smallest `dist(c)` (the first on ties; 0 when none is finite). */
export function nearestCentre(K: number, dist: (c: number) => number): number {
  let best = 0;
  let bd = Infinity;
  for (let c = 0; c < K; c++) {
    const v = dist(c);
    if (v < bd) {
      bd = v;
      best = c;
    }
  }
  return best;
}

/** The minimum spanning tree over the K centres (squared Euclidean distances). */
export function centreMst(C: ArrayLike<number>, K: number): [number, number][] {
  return primMst(K, (a, b) => sqDist2d(C, a, C, b));
}

/** tr(C L Cᵀ) of the tree: Σ over edges of 2 · squared edge length. */
export function treeLength(C: ArrayLike<number>, edges: readonly (readonly [number, number])[]): number {
  let s = 0;
  for (const [a, b] of edges) s += 2 * sqDist2d(C, a, C, b);
  return s;
}

/** The tree's graph Laplacian times `w` (K × K, row-major). */
export function treeLaplacian(
  K: number,
  edges: readonly (readonly [number, number])[],
  w: number,
): Float64Array {
  const L = new Float64Array(K * K);
  for (const [a, b] of edges) {
    L[a * K + a] += w;
    L[b * K + b] += w;
    L[a * K + b] -= w;
    L[b * K + a] -= w;
  }
  return L;
}

/**
 * Soft assignment of point i of X to the K centres C with bandwidth σ, unnormalised:
 * out[o + c] = exp(−(‖x_i − C_c‖² − min)/σ). Returns the sum of the weights and the smallest
 * squared distance `min`.
 */
export function softAssignRow(
  X: ArrayLike<number>,
  i: number,
  C: ArrayLike<number>,
  K: number,
  sigma: number,
  out: Float64Array,
  o: number,
): { sum: number; min: number } {
  let min = Infinity;
  for (let c = 0; c < K; c++) {
    const v = sqDist2d(X, i, C, c);
    out[o + c] = v;
    if (v < min) min = v;
  }
  let sum = 0;
  for (let c = 0; c < K; c++) {
    out[o + c] = Math.exp(-(out[o + c]! - min) / sigma);
    sum += out[o + c]!;
  }
  return { sum, min };
}

/**
 * Projection of (x, y) on the edge a–b of the centres Y: clamped to the segment, or on the whole
 * line through it when `line` (monocle 2 projects tip cells beyond their tip). A zero-length edge
 * projects on a.
 */
export function projectOnEdge(
  x: number,
  y: number,
  Y: Float64Array,
  a: number,
  b: number,
  line = false,
): [number, number] {
  const ax = Y[2 * a]!;
  const ay = Y[2 * a + 1]!;
  const abx = Y[2 * b]! - ax;
  const aby = Y[2 * b + 1]! - ay;
  const ab2 = abx * abx + aby * aby;
  if (ab2 === 0) return [ax, ay];
  let t = ((x - ax) * abx + (y - ay) * aby) / ab2;
  if (!line) t = Math.max(0, Math.min(1, t));
  return [ax + t * abx, ay + t * aby];
}
