/**
 * Trustworthiness of an embedding (Venna & Kaski 2001; scikit-learn `manifold.trustworthiness`,
 * Euclidean): 1 − 2 / (n k (2n − 3k − 1)) · Σᵢ Σ_{j ∈ Uᵢ} (r(i, j) − k), where Uᵢ are the k nearest
 * neighbours of i in the embedding that are not among its k nearest in the original space and
 * r(i, j) is j's rank among i's neighbours in the original space (1 = nearest). 1 is perfect.
 * Exact, O(n² (d + log n)): use on a few thousand points (a sample of a larger set).
 * `x` and `y` are row-major (n × dx and n × dy).
 */
export function trustworthiness(
  x: ArrayLike<number>,
  dx: number,
  y: ArrayLike<number>,
  dy: number,
  k = 5,
): number {
  const n = x.length / dx;
  if (!Number.isInteger(n) || y.length !== n * dy)
    throw new Error('trustworthiness: x and y must have the same rows');
  if (!(k >= 1 && k < n / 2)) throw new Error(`trustworthiness: k = ${k} must be in [1, n/2)`);
  const dist = new Float64Array(n);
  const rank = new Int32Array(n);
  const order = new Int32Array(n);
  let penalty = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) dist[j] = sqDist(x, dx, i, j);
    dist[i] = -1; // itself first, rank 0
    for (let j = 0; j < n; j++) order[j] = j;
    order.sort((a, b) => dist[a] - dist[b] || a - b);
    for (let r = 0; r < n; r++) rank[order[r]] = r;
    for (let j = 0; j < n; j++) dist[j] = j === i ? Infinity : sqDist(y, dy, i, j);
    for (const j of kSmallest(dist, k)) if (rank[j] > k) penalty += rank[j] - k;
  }
  return 1 - (2 / (n * k * (2 * n - 3 * k - 1))) * penalty;
}

function sqDist(v: ArrayLike<number>, d: number, i: number, j: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) {
    const diff = v[i * d + t] - v[j * d + t];
    s += diff * diff;
  }
  return s;
}

/** Indices of the k smallest values (ties by index). */
function kSmallest(values: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (let j = 0; j < values.length; j++) {
    if (best.length === k && values[j] >= values[best[k - 1]]) continue;
    let at = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(j);
    while (at > 0 && values[best[at - 1]] > values[j]) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = j;
  }
  return best;
}
