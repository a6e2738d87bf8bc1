import { engineThreads, runChunksWithWorkers } from '../threads';
import { freeAll, initScran } from '../scran';
import { kmeans } from './kmeans';
import {
  assignNearLists,
  countExactQueries,
  scanNeighbors,
  queryChunks,
  queryChunkStart,
  scanQueries,
  sqDist32,
  type ExactCountInput,
  type NeighborScanInput,
  type ScanInput,
} from './knn-scan';
import { CAPPED_SCAN_LISTS, groupCentroids, LIST_SIZE, listCount } from './knn-groups';
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
  const threads = opts.threads ?? engineThreads();
  if (n <= EXACT_KNN_LIMIT) {
    // knnExact's brute force, its queries in chunks on all threads (same result per query)
    const x = shared(Float64Array, n * d, 8);
    for (let t = 0; t < n * d; t++) x[t] = coords[t];
    const norms = shared(Float64Array, n, 8);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += x[i * d + j] * x[i * d + j];
      norms[i] = s;
    }
    const input: ExactCountInput = { n, d, k, firstMarked, x, norms, counts: shared(Int32Array, n) };
    await runChunked('knn-exact', input, countExactQueries, threads);
    return Int32Array.from(input.counts);
  }
  // √n lists of √n points (Scrublet's calls are sensitive to the lists of this approximate
  // search: they stay those of the previous releases)
  const nList = Math.max(2, Math.round(Math.sqrt(n)));
  const lists = await buildLists(coords, n, d, opts.seed ?? 0, threads, nList);
  const input: ScanInput = {
    ...lists,
    k,
    want: Math.max(k + 1, Math.ceil((opts.candidatesPerNeighbor ?? 3) * k)),
    firstMarked,
    counts: shared(Int32Array, n),
  };
  await runChunked('knn-scan', input, scanQueries, threads);
  return Int32Array.from(input.counts);
}

const shared = <T extends Float32Array | Int32Array | Float64Array>(
  Kind: new (b: SharedArrayBuffer) => T,
  length: number,
  bytes = 4,
): T => new Kind(new SharedArrayBuffer(length * bytes));

type Lists = Omit<ScanInput, 'k' | 'want' | 'firstMarked' | 'counts'>;

/**
 * The inverted lists shared by both searches: k-means centroids (≈ √n lists, fitted on a seeded
 * sample), each point's NEAR_LISTS nearest centroids in order (the first is its list; half of
 * the points in a worker thread) and the points stored list by list (contiguous scans), all in
 * SharedArrayBuffers.
 */
async function buildLists(
  coords: Float32Array,
  n: number,
  d: number,
  seed: number,
  threads: number,
  nList: number,
): Promise<Lists> {
  const fitted = fitCentroids(coords, n, d, nList, seed);
  const { centers, ...groups } = groupCentroids(fitted, nList, d, seed);
  const nNear = Math.min(nList, NEAR_LISTS);
  const near = shared(Int32Array, n * nNear);
  const sharedCoords = shared(Float32Array, n * d);
  sharedCoords.set(coords.subarray(0, n * d));
  await runChunked(
    'knn-near',
    { n, d, nList, nNear, coords: sharedCoords, centers, near, ...groups },
    assignNearLists,
    threads,
  );
  const listStart = shared(Int32Array, nList + 1);
  for (let i = 0; i < n; i++) listStart[near[i * nNear] + 1]++;
  for (let c = 0; c < nList; c++) listStart[c + 1] += listStart[c];
  const fill = listStart.slice(0, nList);
  const sorted = shared(Float32Array, n * d);
  const origin = shared(Int32Array, n);
  for (let i = 0; i < n; i++) {
    const p = fill[near[i * nNear]]++;
    sorted.set(sharedCoords.subarray(i * d, i * d + d), p * d);
    origin[p] = i;
  }
  return { n, d, nList, nNear, coords: sharedCoords, centers, near, ...groups, listStart, sorted, origin };
}

/** Below this many points knnLists searches by plain brute force (knnExact). */
export const BRUTE_FORCE_MAX_POINTS = 3000;

/**
 * The exact k nearest neighbours (Euclidean, self excluded) of every point of a row-major n × d
 * matrix, nearest first: an inverted-file search over k-means lists that skips a list only when
 * a bound proves none of its points can enter the answer (knn-scan.ts scanNeighbors), so the
 * result is the brute-force one (up to ties) at a fraction of its cost on clustered data such as
 * principal components. Half of the queries run in a worker thread over shared arrays (both
 * cores); the result does not depend on the thread count. Brute force up to
 * BRUTE_FORCE_MAX_POINTS points. Above LIST_SIZE² ≈ 102k points the scan of a query stops after
 * CAPPED_SCAN_LISTS lists unless `maxScannedLists` says otherwise (Infinity: exact): a 500k-point
 * search then costs ≈ 5× a 100k one, not 11×, with a recall of 0.998 of the exact lists (measured
 * in docs/benchmarks/engine.md); exact up to 102k points.
 */
export async function knnLists(
  coords: Float32Array,
  n: number,
  d: number,
  k: number,
  opts: { seed?: number; threads?: number; maxScannedLists?: number } = {},
): Promise<{ indices: Int32Array; distances: Float64Array }> {
  if (k >= n) throw new Error(`knnLists: asked for ${k} neighbours but there are only ${n} points`);
  if (n <= BRUTE_FORCE_MAX_POINTS) return knnExact(coords, n, d, k);
  const threads = opts.threads ?? engineThreads();
  const lists = await buildLists(coords, n, d, opts.seed ?? 0, threads, listCount(n));
  const { nList, centers } = lists;
  const centerDist = shared(Float64Array, nList * nList, 8);
  for (let a = 0; a < nList; a++)
    for (let b = 0; b < a; b++) {
      const v = Math.sqrt(sqDist32(centers, a * d, centers, b * d, d, Infinity));
      centerDist[a * nList + b] = v;
      centerDist[b * nList + a] = v;
    }
  const input: NeighborScanInput = {
    ...lists,
    k,
    maxScanned: opts.maxScannedLists ?? (n > LIST_SIZE * LIST_SIZE ? CAPPED_SCAN_LISTS : Infinity),
    centerDist,
    indices: shared(Int32Array, n * k),
    distances: shared(Float64Array, n * k, 8),
  };
  await runChunked('knn-lists', input, scanNeighbors, threads);
  return { indices: input.indices, distances: input.distances };
}

/**
 * Runs `run` over all n points in chunks of queries (knn-scan.ts queryChunks, fixed by n alone)
 * claimed from a shared counter by the calling thread and `threads − 1` worker threads (knn-scan.ts,
 * task `task`; the arrays are shared, nothing is copied), so a thread starved by a loaded machine
 * holds up one chunk, not half of the work (issue 33). Each point's result does not depend on the
 * thread that computed it. The calling thread then waits without spinning (Atomics.waitAsync) for
 * the chunks the workers hold; a chunk of a worker that failed is redone here, and without worker
 * threads the calling thread does them all.
 */
async function runChunked<T extends { n: number }>(
  task: 'knn-scan' | 'knn-near' | 'knn-lists' | 'knn-exact',
  input: T,
  run: (input: T, from: number, to: number) => void,
  threads: number,
): Promise<void> {
  const n = input.n;
  const nChunks = queryChunks(n);
  const nWorkers = Math.max(0, Math.min(threads - 1, nChunks - 1));
  await runChunksWithWorkers({
    url: new URL('./knn-scan.ts', import.meta.url),
    data: { task, input },
    nChunks,
    nWorkers,
    run: (c) => run(input, queryChunkStart(n, c), queryChunkStart(n, c + 1)),
  });
}

/** k-means centroids (k-means++ seeding, 8 Lloyd iterations) fitted on a seeded sample of ≤ 20 points per list. */
function fitCentroids(coords: Float32Array, n: number, d: number, nList: number, seed: number): Float64Array {
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
  return kmeans(sample, m, d, nList, { maxIter: 8, seed });
}
