import { exactQuery } from './knn-scan';

/**
 * Exact k-nearest-neighbour search (Euclidean) on row-major n × d coordinates, self excluded.
 * Brute force with a bounded insertion list per query: O(n² d); fine up to a few ten thousand
 * points. Returns neighbour indices and distances, row-major n × k, nearest first.
 */
export function knnExact(
  coords: ArrayLike<number>,
  n: number,
  d: number,
  k: number,
): { indices: Int32Array; distances: Float64Array } {
  if (k >= n)
    throw new Error(`knn: asked for ${k} neighbours but there are only ${n} points; use fewer neighbours`);
  const x = coords instanceof Float64Array ? coords : Float64Array.from(coords);
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += x[i * d + j] * x[i * d + j];
    norms[i] = s;
  }
  const indices = new Int32Array(n * k);
  const distances = new Float64Array(n * k);
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  for (let q = 0; q < n; q++) {
    exactQuery(x, norms, n, d, k, q, bestD, bestI);
    for (let t = 0; t < k; t++) {
      indices[q * k + t] = bestI[t];
      distances[q * k + t] = Math.sqrt(Math.max(0, bestD[t]));
    }
  }
  return { indices, distances };
}
