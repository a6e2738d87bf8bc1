import { freeAll, initScran } from '../scran';
import { kmeans } from './kmeans';
import { knnExact } from './knn';
import { Random } from './random';

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

/** Nearest lists remembered per point by the inverted-file search (more are ordered on demand). */
const NEAR_LISTS = 16;

export interface MarkedNeighborOptions {
  seed?: number;
  /**
   * Approximate search: candidates scanned per query, as a multiple of k (default 3). The
   * inverted lists nearest to the query are scanned until at least this many points were seen.
   */
  candidatesPerNeighbor?: number;
}

/**
 * For every point of a row-major n × d matrix, how many of its k nearest neighbours (Euclidean,
 * self excluded) have an index ≥ `firstMarked` — Scrublet's count of simulated doublets among a
 * cell's neighbours, without keeping the n × k neighbour lists. Exact brute force up to
 * EXACT_KNN_LIMIT points; above, an inverted-file search: k-means centroids (≈ √n lists, fitted on
 * a seeded sample), each query scans the lists of its nearest centroids until it has seen
 * `candidatesPerNeighbor · k` points and keeps the k nearest of those. Memory O(n·d + √n·d).
 * Deterministic for a seed.
 */
export function countMarkedNeighbors(
  coords: Float32Array,
  n: number,
  d: number,
  k: number,
  firstMarked: number,
  opts: MarkedNeighborOptions = {},
): Int32Array {
  if (k >= n) throw new Error(`countMarkedNeighbors: asked for ${k} neighbours but there are only ${n} points`);
  const counts = new Int32Array(n);
  if (n <= EXACT_KNN_LIMIT) {
    const { indices } = knnExact(coords, n, d, k);
    for (let i = 0; i < n; i++) for (let t = 0; t < k; t++) if (indices[i * k + t] >= firstMarked) counts[i]++;
    return counts;
  }
  const nList = Math.max(2, Math.round(Math.sqrt(n)));
  const centers = fitCentroids(coords, n, d, nList, opts.seed ?? 0);
  // Each point's NEAR_LISTS nearest centroids, in order (the first is its list). All lists in order
  // only when those hold too few points: float32 distances widened to float64 leave 29 low
  // mantissa bits free, which carry the list number, so a native numeric sort orders the lists.
  const nNear = Math.min(nList, NEAR_LISTS);
  const near = new Int32Array(n * nNear);
  const keys = new Float64Array(nList);
  const words = new Uint32Array(keys.buffer);
  const orderLists = (q: number) => {
    for (let c = 0; c < nList; c++) {
      keys[c] = Math.fround(sqDist32(coords, q * d, centers, c * d, d, Infinity));
      words[2 * c] |= c;
    }
    keys.sort();
  };
  const listSize = new Int32Array(nList + 1);
  const bestD = new Float64Array(nNear);
  for (let i = 0; i < n; i++) {
    // bounded insertion list of the nNear nearest centroids
    bestD.fill(Infinity);
    const o = i * nNear;
    for (let c = 0; c < nList; c++) {
      const dc = sqDist32(coords, i * d, centers, c * d, d, bestD[nNear - 1]);
      if (dc >= bestD[nNear - 1]) continue;
      let pos = nNear - 1;
      while (pos > 0 && bestD[pos - 1] > dc) {
        bestD[pos] = bestD[pos - 1];
        near[o + pos] = near[o + pos - 1];
        pos--;
      }
      bestD[pos] = dc;
      near[o + pos] = c;
    }
    listSize[near[o] + 1]++;
  }
  // the points stored list by list (contiguous scans)
  const listStart = new Int32Array(nList + 1);
  for (let c = 0; c < nList; c++) listStart[c + 1] = listStart[c] + listSize[c + 1];
  const fill = listStart.slice(0, nList);
  const sorted = new Float32Array(n * d);
  const origin = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = fill[near[i * nNear]]++;
    sorted.set(coords.subarray(i * d, i * d + d), p * d);
    origin[p] = i;
  }
  const want = Math.max(k + 1, Math.ceil((opts.candidatesPerNeighbor ?? 3) * k));
  let maxList = 0;
  for (let c = 0; c < nList; c++) maxList = Math.max(maxList, listStart[c + 1] - listStart[c]);
  // candidates kept: at most 2k (then cut back to the k nearest) plus one list
  const dist = new Float32Array(2 * k + maxList);
  const mark = new Uint8Array(2 * k + maxList);
  // queries in list order: consecutive queries scan mostly the same lists (cache-friendly)
  for (let qp = 0; qp < n; qp++) {
    const q = origin[qp];
    const qo = qp * d;
    let m = 0;
    let seen = 0;
    // Once k candidates are in hand, the k-th smallest distance so far bounds the answer: a
    // farther point can never enter it, so its distance stops early (PCs come in decreasing
    // variance, so most far points are rejected within the first dimensions).
    let bound = Infinity;
    const scan = (c: number) => {
      for (let p = listStart[c]; p < listStart[c + 1]; p++) {
        if (p === qp) continue;
        seen++;
        const dp = sqDist32(sorted, qo, sorted, p * d, d, bound);
        if (dp > bound) continue;
        dist[m] = dp;
        mark[m++] = origin[p] >= firstMarked ? 1 : 0;
      }
      if (m >= 2 * k) {
        selectSmallest(dist, mark, m, k);
        m = k;
        bound = 0;
        for (let t = 0; t < k; t++) if (dist[t] > bound) bound = dist[t];
      }
    };
    let r = 0;
    for (; r < nNear && seen < want; r++) scan(near[q * nNear + r]);
    if (seen < want && r < nList) {
      orderLists(q); // rare: the nearest NEAR_LISTS lists hold too few points
      for (; r < nList && seen < want; r++) scan(words[2 * r] & 0x1fffffff);
    }
    selectSmallest(dist, mark, m, k);
    let nd = 0;
    for (let t = 0; t < k; t++) nd += mark[t];
    counts[q] = nd;
  }
  return counts;
}

/** Squared distance between row `ao` of `a` and row `bo` of `b`; stops early once above `bound`. */
function sqDist32(a: Float32Array, ao: number, b: Float32Array, bo: number, d: number, bound: number): number {
  let s = 0;
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const x0 = a[ao + j] - b[bo + j];
    const x1 = a[ao + j + 1] - b[bo + j + 1];
    const x2 = a[ao + j + 2] - b[bo + j + 2];
    const x3 = a[ao + j + 3] - b[bo + j + 3];
    s += x0 * x0 + x1 * x1 + x2 * x2 + x3 * x3;
    if (s > bound) return s;
  }
  for (; j < d; j++) {
    const x = a[ao + j] - b[bo + j];
    s += x * x;
  }
  return s;
}

/** k-means centroids (k-means++ seeding, 8 Lloyd iterations) fitted on a seeded sample of ≤ 20 points per list. */
function fitCentroids(coords: Float32Array, n: number, d: number, nList: number, seed: number): Float32Array {
  const rng = new Random(seed);
  const m = Math.min(n, nList * 20);
  const pick = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < m; i++) {
    const j = i + rng.int(n - i);
    const t = pick[i];
    pick[i] = pick[j];
    pick[j] = t;
  }
  const sample = new Float64Array(m * d);
  for (let i = 0; i < m; i++) for (let j = 0; j < d; j++) sample[i * d + j] = coords[pick[i] * d + j];
  return Float32Array.from(kmeans(sample, m, d, nList, { maxIter: 8, seed }));
}

/** Moves the k smallest of dist[0..m) (with their marks) to the front, in any order (quickselect). */
function selectSmallest(dist: Float32Array, mark: Uint8Array, m: number, k: number): void {
  let lo = 0;
  let hi = m - 1;
  while (lo < hi) {
    const pivot = dist[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (dist[i] < pivot) i++;
      while (dist[j] > pivot) j--;
      if (i <= j) {
        const td = dist[i];
        dist[i] = dist[j];
        dist[j] = td;
        const tm = mark[i];
        mark[i] = mark[j];
        mark[j] = tm;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}
