import { kmeans } from './kmeans';
import { sqDist32 } from './knn-scan';

/** Points per inverted list above 100k points (below, √n lists of √n points, as before). */
export const LIST_SIZE = 320;

/**
 * Number of inverted lists for n points: √n up to ~100k points, then n / LIST_SIZE, so that the
 * lists stop growing and a query's scan costs the same at 500k points as at 100k.
 */
export function listCount(n: number): number {
  return Math.max(2, Math.round(Math.max(Math.sqrt(n), n / LIST_SIZE)));
}

/**
 * Above LIST_SIZE² points (where the lists stop growing) knnLists scans at most this many lists per
 * query by default: the nearest 16 hold the exact neighbours of ≥ 99.8 % (synthetic 200k–500k
 * PCs), and the scan no longer grows with the number of lists.
 */
export const CAPPED_SCAN_LISTS = 16;

export interface CentroidGroups {
  /** The centroids renumbered group by group (shared memory), nList × d. */
  centers: Float32Array;
  nGroup: number;
  groupCenters: Float32Array;
  groupRadius: Float64Array;
  groupStart: Int32Array;
}

/**
 * Groups the nList centroids (k-means of the centroids, ≈ √nList groups) and renumbers them so
 * that each group's members are contiguous; each group keeps its centre and radius, which bound
 * the distance from a point to any member (knn-scan.ts assignNearLists: a point's nearest
 * centroids without measuring all of them, O(√nList + members visited) instead of O(nList)).
 */
export function groupCentroids(fitted: Float64Array, nList: number, d: number, seed: number): CentroidGroups {
  const nGroup = nList < 16 ? 1 : Math.round(Math.sqrt(nList));
  const gc = nGroup === 1 ? meanOf(fitted, nList, d) : kmeans(fitted, nList, d, nGroup, { maxIter: 8, seed });
  const groupCenters = new Float32Array(new SharedArrayBuffer(nGroup * d * 4));
  groupCenters.set(gc);
  const f32 = Float32Array.from(fitted);
  const groupOf = new Int32Array(nList);
  const groupStart = new Int32Array(new SharedArrayBuffer((nGroup + 1) * 4));
  for (let c = 0; c < nList; c++) {
    let best = Infinity;
    for (let g = 0; g < nGroup; g++) {
      const dg = sqDist32(f32, c * d, groupCenters, g * d, d, best);
      if (dg < best) {
        best = dg;
        groupOf[c] = g;
      }
    }
    groupStart[groupOf[c] + 1]++;
  }
  for (let g = 0; g < nGroup; g++) groupStart[g + 1] += groupStart[g];
  const fill = groupStart.slice(0, nGroup);
  const centers = new Float32Array(new SharedArrayBuffer(nList * d * 4));
  const groupRadius = new Float64Array(new SharedArrayBuffer(nGroup * 8));
  for (let c = 0; c < nList; c++) {
    const g = groupOf[c];
    const p = fill[g]++;
    centers.set(f32.subarray(c * d, c * d + d), p * d);
    const r = Math.sqrt(sqDist32(f32, c * d, groupCenters, g * d, d, Infinity));
    if (r > groupRadius[g]) groupRadius[g] = r;
  }
  return { centers, nGroup, groupCenters, groupRadius, groupStart };
}

function meanOf(x: Float64Array, n: number, d: number): Float64Array {
  const m = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) m[j] += x[i * d + j] / n;
  return m;
}
