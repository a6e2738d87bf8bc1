import { freeAll, initScran } from '../scran';
import { knnExact } from './knn';

/** Above this many points the search uses scran.js's approximate (Annoy) index instead of brute force. */
export const EXACT_KNN_LIMIT = 8000;

/**
 * k nearest neighbours (self excluded) of every point of a row-major n × d matrix: exact brute
 * force for small inputs, scran.js Annoy (as Scrublet's default `use_approx_neighbors`) above
 * EXACT_KNN_LIMIT points. WebAssembly memory is freed before returning.
 */
export async function knnSearch(coords: ArrayLike<number>, n: number, d: number, k: number): Promise<{ indices: Int32Array; distances: Float64Array }> {
  if (n <= EXACT_KNN_LIMIT) return knnExact(coords, n, d, k);
  const scran = await initScran();
  let index: ReturnType<typeof scran.buildNeighborSearchIndex> | undefined;
  let results: ReturnType<typeof scran.findNearestNeighbors> | undefined;
  try {
    index = scran.buildNeighborSearchIndex(Float64Array.from(coords), { numberOfDims: d, numberOfCells: n, approximate: true });
    results = scran.findNearestNeighbors(index, k);
    const { runs, indices, distances } = results.serialize();
    for (let i = 0; i < n; i++) {
      if (runs[i] !== k) throw new Error(`knnSearch: expected ${k} neighbours per point, got ${runs[i]}`);
    }
    return { indices, distances };
  } finally {
    freeAll(results, index);
  }
}
