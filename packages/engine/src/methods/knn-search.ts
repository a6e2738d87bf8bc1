import { freeAll, initScran } from '../scran';
import { Worker } from 'node:worker_threads';
import { kmeans } from './kmeans';
import { assignNearLists, scanQueries, type ScanInput } from './knn-scan';
import { knnExact } from './knn';
import { Random } from './random';

/** Above this many points the search uses scran.js's approximate (Annoy) index instead of brute force. */
export const EXACT_KNN_LIMIT = 8000;

/**
 * k nearest neighbours (self excluded) of every point of a row-major n × d matrix: exact brute
 * force for small inputs, scran.js Annoy (as Scrublet's default `use_approx_neighbors`) above
 * EXACT_KNN_LIMIT points. WebAssembly memory is freed before returning.
 */
export async function knnSearch(
  coords: ArrayLike<number>,
  n: number,
  d: number,
  k: number,
): Promise<{ indices: Int32Array; distances: Float64Array }> {
  if (n <= EXACT_KNN_LIMIT) return knnExact(coords, n, d, k);
  const scran = await initScran();
  let index: ReturnType<typeof scran.buildNeighborSearchIndex> | undefined;
  let results: ReturnType<typeof scran.findNearestNeighbors> | undefined;
  try {
    index = scran.buildNeighborSearchIndex(Float64Array.from(coords), {
      numberOfDims: d,
      numberOfCells: n,
      approximate: true,
    });
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
  /** 2 (default): half of the queries run in a worker thread; 1: all on the calling thread. */
  threads?: number;
}

/**
 * For every point of a row-major n × d matrix, how many of its k nearest neighbours (Euclidean,
 * self excluded) have an index ≥ `firstMarked` — Scrublet's count of simulated doublets among a
 * cell's neighbours, without keeping the n × k neighbour lists. Exact brute force up to
 * EXACT_KNN_LIMIT points; above, an inverted-file search: k-means centroids (≈ √n lists, fitted on
 * a seeded sample), each query scans the lists of its nearest centroids until it has seen
 * `candidatesPerNeighbor · k` points and keeps the k nearest of those (query loop in knn-scan.ts;
 * half of the queries run in a worker thread on the same shared arrays). Memory O(n·d + √n·d).
 * Deterministic for a seed, whatever the number of threads.
 */
export async function countMarkedNeighbors(
  coords: Float32Array,
  n: number,
  d: number,
  k: number,
  firstMarked: number,
  opts: MarkedNeighborOptions = {},
): Promise<Int32Array> {
  if (k >= n)
    throw new Error(`countMarkedNeighbors: asked for ${k} neighbours but there are only ${n} points`);
  const counts = new Int32Array(n);
  if (n <= EXACT_KNN_LIMIT) {
    const { indices } = knnExact(coords, n, d, k);
    for (let i = 0; i < n; i++)
      for (let t = 0; t < k; t++) if (indices[i * k + t] >= firstMarked) counts[i]++;
    return counts;
  }
  const nList = Math.max(2, Math.round(Math.sqrt(n)));
  const shared = <T extends Float32Array | Int32Array>(
    Kind: new (b: SharedArrayBuffer) => T,
    length: number,
  ): T => new Kind(new SharedArrayBuffer(length * 4));
  const centers = fitCentroids(coords, n, d, nList, opts.seed ?? 0, shared(Float32Array, nList * d));
  // Each point's NEAR_LISTS nearest centroids, in order (the first is its list); half of the
  // points in a worker thread, as the queries below
  const nNear = Math.min(nList, NEAR_LISTS);
  const near = shared(Int32Array, n * nNear);
  const sharedCoords = shared(Float32Array, n * d);
  sharedCoords.set(coords.subarray(0, n * d));
  const threads = opts.threads ?? 2;
  await runInTwo(
    'knn-near',
    { n, d, nList, nNear, coords: sharedCoords, centers, near },
    assignNearLists,
    threads,
  );
  const listSize = new Int32Array(nList + 1);
  for (let i = 0; i < n; i++) listSize[near[i * nNear] + 1]++;
  // the points stored list by list (contiguous scans)
  const listStart = shared(Int32Array, nList + 1);
  for (let c = 0; c < nList; c++) listStart[c + 1] = listStart[c] + listSize[c + 1];
  const fill = listStart.slice(0, nList);
  const sorted = shared(Float32Array, n * d);
  const origin = shared(Int32Array, n);
  for (let i = 0; i < n; i++) {
    const p = fill[near[i * nNear]]++;
    sorted.set(coords.subarray(i * d, i * d + d), p * d);
    origin[p] = i;
  }
  const input: ScanInput = {
    n,
    d,
    k,
    nList,
    nNear,
    want: Math.max(k + 1, Math.ceil((opts.candidatesPerNeighbor ?? 3) * k)),
    firstMarked,
    coords: sharedCoords,
    centers,
    near,
    listStart,
    sorted,
    origin,
    counts: shared(Int32Array, n),
  };
  await runInTwo('knn-scan', input, scanQueries, threads);
  return Int32Array.from(input.counts);
}

/**
 * Runs `run` over all n points, the upper half in a worker thread (knn-scan.ts, task `task`) when
 * `threads` is 2 (the arrays are shared, nothing is copied); each point's result does not depend
 * on the thread. Without worker threads (or if the worker fails to start) the main thread does it all.
 */
async function runInTwo<T extends { n: number }>(
  task: 'knn-scan' | 'knn-near',
  input: T,
  run: (input: T, from: number, to: number) => void,
  threads: number,
): Promise<void> {
  const half = threads > 1 ? Math.floor(input.n / 2) : input.n;
  let worker: Worker | undefined;
  let done: Promise<boolean> = Promise.resolve(false);
  if (half < input.n) {
    try {
      worker = new Worker(new URL('./knn-scan.ts', import.meta.url), {
        workerData: { task, input, from: half, to: input.n },
      });
      const w = worker;
      done = new Promise<boolean>((resolve) => {
        w.once('message', () => resolve(true));
        w.once('error', () => resolve(false));
        w.once('exit', () => resolve(false));
      });
    } catch {
      worker = undefined;
    }
  }
  try {
    run(input, 0, half);
    if (half < input.n && !(await done)) run(input, half, input.n);
  } finally {
    await worker?.terminate();
  }
}

/** k-means centroids (k-means++ seeding, 8 Lloyd iterations) fitted on a seeded sample of ≤ 20 points per list. */
function fitCentroids(
  coords: Float32Array,
  n: number,
  d: number,
  nList: number,
  seed: number,
  out: Float32Array,
): Float32Array {
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
  out.set(kmeans(sample, m, d, nList, { maxIter: 8, seed }));
  return out;
}
