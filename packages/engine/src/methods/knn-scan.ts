import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * The query loop of knn-search's inverted-file search (countMarkedNeighbors), on its own so that
 * a worker thread can run half of the queries. This file imports nothing of ours (Node loads it
 * directly as a worker, type annotations stripped) and uses erasable TypeScript only.
 */
export interface ScanInput {
  n: number;
  d: number;
  k: number;
  nList: number;
  /** Nearest lists remembered per point (`near`, n × nNear). */
  nNear: number;
  /** Candidates to see per query before stopping. */
  want: number;
  firstMarked: number;
  coords: Float32Array;
  centers: Float32Array;
  /**
   * The centroids in nGroup groups (members contiguous: group g holds centroids
   * groupStart[g] .. groupStart[g + 1]), each with its centre (nGroup × d) and radius (the largest
   * distance from the centre to a member), so that a point's nearest centroids are found without
   * measuring all of them (assignNearLists).
   */
  nGroup: number;
  groupCenters: Float32Array;
  groupRadius: Float64Array;
  groupStart: Int32Array;
  near: Int32Array;
  listStart: Int32Array;
  /** Points stored list by list, and the original index of each stored point. */
  sorted: Float32Array;
  origin: Int32Array;
  /** Output: marked neighbours per point (original index). */
  counts: Int32Array;
}

/** Counts, for the stored points qp in [from, to), the marked points among their k nearest candidates. */
export function scanQueries(s: ScanInput, from: number, to: number): void {
  const { d, k, nList, want, firstMarked, listStart, sorted, origin, counts } = s;
  let maxList = 0;
  for (let c = 0; c < nList; c++) maxList = Math.max(maxList, listStart[c + 1] - listStart[c]);
  // candidates kept: the k nearest so far plus one list (cut back to k after each list)
  const dist = new Float32Array(k + maxList);
  const mark = new Uint8Array(k + maxList);
  const listAt = listOrder(s);
  const full = new Float64Array(maxList);
  // queries in list order: consecutive queries scan mostly the same lists (cache-friendly)
  for (let qp = from; qp < to; qp++) {
    const q = origin[qp];
    const qo = qp * d;
    let m = 0;
    let seen = 0;
    // Once k candidates are in hand, the k-th smallest distance so far bounds the answer: a
    // farther point can never enter it, so its distance stops early (PCs come in decreasing
    // variance, so most far points are rejected within the first dimensions). The bound is set
    // after every list that leaves ≥ k candidates; which points are seen does not depend on it.
    let bound = Infinity;
    for (let r = 0; r < nList && seen < want; r++) {
      const c = listAt(q, r);
      const end = listStart[c + 1];
      // the distances of the whole list, several points at a time (fullSqDists): a point beyond
      // the bound can never enter the answer, and which points are seen does not depend on it
      const start = listStart[c];
      fullSqDists(sorted, qo, start, end, d, bound, full);
      for (let p = start; p < end; p++) {
        if (p === qp) continue;
        seen++;
        const dp = full[p - start];
        if (dp > bound) continue;
        dist[m] = dp;
        mark[m++] = origin[p] >= firstMarked ? 1 : 0;
      }
      if (m >= k) {
        selectSmallest(dist, mark, m, k);
        m = k;
        bound = 0;
        for (let t = 0; t < k; t++) if (dist[t] > bound) bound = dist[t];
      }
    }
    selectSmallest(dist, mark, m, k);
    let nd = 0;
    for (let t = 0; t < k; t++) nd += mark[t];
    counts[q] = nd;
  }
}

/** What scanNeighbors reads (the lists of ScanInput) and writes (k nearest per point). */
export interface NeighborScanInput extends Omit<ScanInput, 'want' | 'firstMarked' | 'counts'> {
  /** Distances between centroids, nList × nList (Euclidean). */
  centerDist: Float64Array;
  /**
   * Lists scanned per query at most (Infinity: exact). A capped query stops after that many
   * scanned lists (the nearest first) and keeps the k nearest it has seen.
   */
  maxScanned: number;
  /** Output, by original index, n × k nearest first: neighbour indices and Euclidean distances. */
  indices: Int32Array;
  distances: Float64Array;
}

/**
 * The exact k nearest neighbours (self excluded) of the stored points qp in [from, to), by an
 * inverted-file scan that skips a list only when no point of it can be nearer than the current
 * k-th: every point p of list c is nearer to centroid c than to the query's own centroid c0, so
 * |q − p| ≥ (|q − c|² − |q − c0|²) / (2 |c − c0|) (the distance from q to the bisector of c and
 * c0) ≥ (|q − c| − |q − c0|) / 2. The remembered nNear nearest lists are visited first, by
 * increasing |q − c| (once the weaker bound exceeds the k-th distance, every farther list is out);
 * then the lists of the centroid groups that the group's radius does not rule out.
 */
export function scanNeighbors(s: NeighborScanInput, from: number, to: number): void {
  const { d, k, nList, nNear, centers, near, listStart, sorted, origin, centerDist } = s;
  const { nGroup, groupCenters, groupRadius, groupStart, maxScanned } = s;
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  const visited = new Int32Array(nList).fill(-1);
  // a bound must beat the k-th distance by this relative margin to skip (float32 rounding)
  const slack = 1 + 1e-6;
  for (let qp = from; qp < to; qp++) {
    const q = origin[qp];
    const qo = qp * d;
    bestD.fill(Infinity);
    bestI.fill(-1);
    const c0 = near[q * nNear];
    const d0sq = sqDist32(sorted, qo, centers, c0 * d, d, Infinity);
    const d0 = Math.sqrt(d0sq);
    // Scans list c unless a bound proves it cannot hold a neighbour; false when even the
    // weaker bound (|q − c| − |q − c0|) / 2 exceeds the k-th distance (then so do all farther lists).
    let scanned = 0;
    const visit = (c: number): boolean => {
      visited[c] = qp;
      if (scanned >= maxScanned) return false;
      const kth = Math.sqrt(bestD[k - 1]) * slack;
      const dcSq = c === c0 ? d0sq : sqDist32(sorted, qo, centers, c * d, d, Infinity);
      if ((Math.sqrt(dcSq) - d0) / 2 > kth) return false;
      if (c !== c0 && (dcSq - d0sq) / (2 * centerDist[c0 * nList + c]) > kth) return true;
      scanned++;
      const end = listStart[c + 1];
      for (let p = listStart[c]; p < end; p++) {
        if (p === qp) continue;
        const dp = sqDist32(sorted, qo, sorted, p * d, d, bestD[k - 1]);
        if (dp < bestD[k - 1]) insertNearest(bestD, bestI, k, dp, origin[p]);
      }
      return true;
    };
    // the remembered nearest lists first, nearest first: they hold most neighbours
    let settled = false;
    for (let r = 0; r < nNear && !settled; r++) settled = !visit(near[q * nNear + r]);
    // then every other list whose group is not ruled out: no member of group g is nearer to q than
    // |q − centre_g| − radius_g, so when half of that beyond d0 exceeds the k-th distance no list
    // of the group can hold a neighbour (any order is exact: each skip uses the current k-th
    // distance, which only shrinks)
    for (let g = 0; g < nGroup && !settled && scanned < maxScanned; g++) {
      const kth = Math.sqrt(bestD[k - 1]) * slack;
      const reach = 2 * kth + d0 + groupRadius[g];
      const gd = Math.sqrt(sqDist32(sorted, qo, groupCenters, g * d, d, reach * reach));
      if ((gd - groupRadius[g] - d0) / 2 > kth) continue;
      for (let c = groupStart[g]; c < groupStart[g + 1]; c++) if (visited[c] !== qp) visit(c);
    }
    const o = q * k;
    for (let t = 0; t < k; t++) {
      s.indices[o + t] = bestI[t];
      s.distances[o + t] = Math.sqrt(bestD[t]);
    }
  }
}

/** Inserts (dist, index) into the ascending k-list bestD/bestI (dist < bestD[k − 1]), dropping the last. */
export function insertNearest(
  bestD: Float64Array,
  bestI: Int32Array,
  k: number,
  dist: number,
  index: number,
): void {
  let pos = k - 1;
  while (pos > 0 && bestD[pos - 1] > dist) {
    bestD[pos] = bestD[pos - 1];
    bestI[pos] = bestI[pos - 1];
    pos--;
  }
  bestD[pos] = dist;
  bestI[pos] = index;
}

/** What countExactQueries reads (points as float64 and their squared norms) and writes. */
export interface ExactCountInput {
  n: number;
  d: number;
  k: number;
  firstMarked: number;
  x: Float64Array;
  norms: Float64Array;
  /** Output: marked points (index ≥ firstMarked) among each query's k nearest. */
  counts: Int32Array;
}

/**
 * The k nearest neighbours of point q by brute force (knn.ts knnExact's query: |q|² + |p|² − 2 q·p,
 * ties to the lower index), ascending into bestD / bestI.
 */
export function exactQuery(
  x: Float64Array,
  norms: Float64Array,
  n: number,
  d: number,
  k: number,
  q: number,
  bestD: Float64Array,
  bestI: Int32Array,
): void {
  bestD.fill(Infinity);
  bestI.fill(-1);
  const qo = q * d;
  for (let p = 0; p < n; p++) {
    if (p === q) continue;
    const po = p * d;
    let dot = 0;
    for (let j = 0; j < d; j++) dot += x[qo + j] * x[po + j];
    const dist = norms[q] + norms[p] - 2 * dot;
    if (dist < bestD[k - 1]) insertNearest(bestD, bestI, k, dist, p);
  }
}

/** For queries [from, to): the marked points among their exact k nearest (exactQuery). */
export function countExactQueries(s: ExactCountInput, from: number, to: number): void {
  const { n, d, k, firstMarked, x, norms, counts } = s;
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  for (let q = from; q < to; q++) {
    exactQuery(x, norms, n, d, k, q, bestD, bestI);
    let nd = 0;
    for (let t = 0; t < k; t++) if (bestI[t] >= firstMarked) nd++;
    counts[q] = nd;
  }
}

/** What assignNearLists reads and writes (a subset of ScanInput). */
export type NearInput = Pick<
  ScanInput,
  | 'n'
  | 'd'
  | 'nList'
  | 'nNear'
  | 'coords'
  | 'centers'
  | 'near'
  | 'nGroup'
  | 'groupCenters'
  | 'groupRadius'
  | 'groupStart'
>;

/**
 * listAt(q, r): the r-th nearest list of point q, for r = 0, 1, 2, … in turn — the remembered
 * nNear nearest first, then (rare: they did not settle the query) all lists ordered by distance,
 * sorted once per query when r reaches nNear.
 */
function listOrder(s: NearInput): (q: number, r: number) => number {
  const { d, nList, nNear, coords, centers, near } = s;
  const keys = new Float64Array(nList);
  const words = new Uint32Array(keys.buffer);
  return (q, r) => {
    if (r < nNear) return near[q * nNear + r];
    if (r === nNear) {
      for (let l = 0; l < nList; l++) keys[l] = sqDist32(coords, q * d, centers, l * d, d, Infinity);
      sortWithIndex(keys, words, nList);
    }
    return words[2 * r] & 0x1fffffff;
  };
}

/**
 * Sorts keys[0 .. m) ascending with each key's position in its low mantissa bits (read back as
 * words[2 r] & 0x1fffffff): the keys are rounded to float32 first (29 free bits), so the order is
 * that of the float32-rounded keys, ties by position.
 */
function sortWithIndex(keys: Float64Array, words: Uint32Array, m: number): void {
  for (let l = 0; l < m; l++) {
    keys[l] = Math.fround(keys[l]);
    words[2 * l] |= l;
  }
  keys.subarray(0, m).sort();
}

/**
 * For points [from, to): their nNear nearest centroids, nearest first, into `near` (n × nNear).
 * Exact without measuring every centroid: the groups are visited by increasing lower bound
 * |x − group centre| − radius (no member can be nearer than that) and a group is skipped once its
 * bound exceeds the nNear-th distance found so far.
 */
export function assignNearLists(s: NearInput, from: number, to: number): void {
  const { d, nNear, coords, centers, near, nGroup, groupCenters, groupRadius, groupStart } = s;
  const bestD = new Float64Array(nNear);
  const lower = new Float64Array(nGroup);
  const keys = new Float64Array(nGroup);
  const words = new Uint32Array(keys.buffer);
  // a bound must beat the nNear-th distance by this relative margin to skip (rounding)
  const slack = 1 + 1e-6;
  for (let i = from; i < to; i++) {
    const io = i * d;
    for (let g = 0; g < nGroup; g++) {
      lower[g] = Math.sqrt(sqDist32(coords, io, groupCenters, g * d, d, Infinity)) - groupRadius[g];
      keys[g] = lower[g];
    }
    sortWithIndex(keys, words, nGroup);
    // bounded insertion list of the nNear nearest centroids
    bestD.fill(Infinity);
    const o = i * nNear;
    for (let r = 0; r < nGroup; r++) {
      const g = words[2 * r] & 0x1fffffff;
      const lb = lower[g];
      if (lb > 0 && lb * lb > bestD[nNear - 1] * slack) continue;
      for (let c = groupStart[g]; c < groupStart[g + 1]; c++) {
        const dc = sqDist32(coords, io, centers, c * d, d, bestD[nNear - 1]);
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
    }
  }
}

/** Squared distance between row `ao` of `a` and row `bo` of `b`; stops early once above `bound`. */
export function sqDist32(
  a: Float32Array,
  ao: number,
  b: Float32Array,
  bo: number,
  d: number,
  bound: number,
): number {
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

/**
 * Squared distances from row `qo` of `a` to rows p0 … p1 − 1 of `a` into out[0 …), four rows at a
 * time so that their independent sums overlap: each is the very sum sqDist32 computes (same
 * terms, same order: bit-identical) or, once all four rows of a block exceed `bound`, a partial
 * sum above `bound` (the sums only grow: the same points are above it either way).
 */
export function fullSqDists(
  a: Float32Array,
  qo: number,
  p0: number,
  p1: number,
  d: number,
  bound: number,
  out: Float64Array,
): void {
  const d4 = d - (d % 4);
  let p = p0;
  for (; p + 4 <= p1; p += 4) {
    const o0 = p * d;
    const o1 = o0 + d;
    const o2 = o1 + d;
    const o3 = o2 + d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j < d4; j += 4) {
      s0 += sqDist4(a, qo + j, o0 + j);
      s1 += sqDist4(a, qo + j, o1 + j);
      s2 += sqDist4(a, qo + j, o2 + j);
      s3 += sqDist4(a, qo + j, o3 + j);
      if (s0 > bound && s1 > bound && s2 > bound && s3 > bound) {
        j = d; // all four beyond the bound: the rest of the sums would not change that
        break;
      }
    }
    for (; j < d; j++) {
      const q = a[qo + j];
      const x0 = q - a[o0 + j];
      const x1 = q - a[o1 + j];
      const x2 = q - a[o2 + j];
      const x3 = q - a[o3 + j];
      s0 += x0 * x0;
      s1 += x1 * x1;
      s2 += x2 * x2;
      s3 += x3 * x3;
    }
    out[p - p0] = s0;
    out[p - p0 + 1] = s1;
    out[p - p0 + 2] = s2;
    out[p - p0 + 3] = s3;
  }
  for (; p < p1; p++) out[p - p0] = sqDist32(a, qo, a, p * d, d, bound);
}

/** x0² + x1² + x2² + x3² for x = a[u …] − a[v …] (four terms summed as sqDist32 sums them). */
function sqDist4(a: Float32Array, u: number, v: number): number {
  const x0 = a[u] - a[v];
  const x1 = a[u + 1] - a[v + 1];
  const x2 = a[u + 2] - a[v + 2];
  const x3 = a[u + 3] - a[v + 3];
  return x0 * x0 + x1 * x1 + x2 * x2 + x3 * x3;
}

/** Moves the k smallest of dist[0..m) (with their marks) to the front, in any order (quickselect). */
export function selectSmallest(dist: Float32Array, mark: Uint8Array, m: number, k: number): void {
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

/** Queries per chunk of a search claimed by the threads (knn-search runChunked); at most MAX_QUERY_CHUNKS chunks. */
export const QUERY_CHUNK = 512;
export const MAX_QUERY_CHUNKS = 256;
/** Chunks of n queries: a function of n only, never of the thread count. */
export const queryChunks = (n: number): number =>
  Math.max(1, Math.min(MAX_QUERY_CHUNKS, Math.ceil(n / QUERY_CHUNK)));
/** First query of chunk c. */
export const queryChunkStart = (n: number, c: number): number => Math.floor((c * n) / queryChunks(n));

/**
 * A worker's share of a chunked search: claims chunks from control[0] (the calling thread claims
 * from it too), counts them done in control[1] (waking the calling thread at the last one) and
 * holds the chunk it is on + 1 in control[slot], so that a failed worker's chunk can be redone
 * (the protocol of `claimChunks` in ../threads.ts; this file imports nothing of ours).
 */
function claimQueries(
  run: (i: unknown, f: number, t: number) => void,
  input: { n: number },
  ctl: Int32Array,
  slot: number,
): void {
  const n = input.n;
  const nChunks = queryChunks(n);
  for (let c = Atomics.add(ctl, 0, 1); c < nChunks; c = Atomics.add(ctl, 0, 1)) {
    Atomics.store(ctl, slot, c + 1);
    run(input, queryChunkStart(n, c), queryChunkStart(n, c + 1));
    if (Atomics.add(ctl, 1, 1) + 1 === nChunks) Atomics.notify(ctl, 1);
    Atomics.store(ctl, slot, 0);
  }
}

// Worker entry: knn-search starts this file with { task: 'knn-scan' | 'knn-near' | 'knn-lists' | 'knn-exact', input, control, slot }
// (shared arrays).
const WORKER_TASKS = {
  'knn-scan': scanQueries,
  'knn-near': assignNearLists,
  'knn-lists': scanNeighbors,
  'knn-exact': countExactQueries,
};
if (!isMainThread && typeof workerData?.task === 'string' && workerData.task in WORKER_TASKS) {
  const run = WORKER_TASKS[workerData.task as keyof typeof WORKER_TASKS] as (
    i: unknown,
    f: number,
    t: number,
  ) => void;
  claimQueries(run, workerData.input, workerData.control as Int32Array, workerData.slot as number);
  parentPort?.postMessage('done');
}
