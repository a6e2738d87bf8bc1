import { isMainThread, workerData } from 'node:worker_threads';

/**
 * Scrublet's exact neighbour search (scrublet.ts, up to EXACT_KNN_LIMIT points): the brute force
 * of knn-search countMarkedNeighbors with each pair measured once instead of twice. Principal
 * components of Scrublet's z-scored counts spread their variance over all dimensions (pbmc3k: a
 * point's 78th neighbour lies within the first-8-component distance of a third of all points), so
 * bounds prune little and every pair is measured; the distance of a pair is the same number seen
 * from either end (|a|² + |b|² − 2 a·b, the dot product summed in coordinate order as the brute
 * force's), so the pairs are cut into tiles of two blocks of points (I ≤ J), each tile measured
 * once and offered to the nearest lists of both its blocks; a list keeps the k smallest under
 * (distance, index), the brute force's choice among ties, whatever order the pairs come in. This
 * file imports nothing of ours statically (Node loads it directly as a worker, type annotations
 * stripped) and uses erasable TypeScript only.
 */
export interface PairTiles {
  n: number;
  d: number;
  k: number;
  /** Row-major n × d coordinates (float64) and their squared norms. */
  x: Float64Array;
  norms: Float64Array;
  /**
   * One set of nearest lists per thread (list of point q of thread t at (t·n + q)·k): max-heaps
   * under (distance, index); `top` / `topIndex` (t·n + q) mirror each heap's root.
   */
  heapD: Float64Array;
  heapI: Int32Array;
  top: Float64Array;
  topIndex: Int32Array;
  /** planTiles */
  blockStart: Int32Array;
  tiles: Int32Array;
}

/** Points per block of a tile. */
export const TILE = 64;
/** Chunks of tiles claimed by the threads (fewer when there are fewer tiles): fixed by the tiles alone. */
const MAX_TILE_CHUNKS = 64;

/**
 * The tiles of the pairs to measure: blocks of ≤ TILE points, each starting where the previous
 * one ends — the points [0, split) first, then [split, n) — and the block pairs (I ≤ J) with J ≥
 * the first block of [split, n), two block numbers a tile: every pair (i < j, j ≥ split) falls in
 * exactly one tile. split = 0: all pairs.
 */
export function planTiles(n: number, split: number): { blockStart: Int32Array; tiles: Int32Array } {
  const before = Math.ceil(split / TILE);
  const nB = before + Math.ceil((n - split) / TILE);
  const blockStart = Int32Array.from({ length: nB + 1 }, (_, b) =>
    b <= before ? Math.min(split, b * TILE) : Math.min(n, split + (b - before) * TILE),
  );
  const tiles: number[] = [];
  for (let I = 0; I < nB; I++) for (let J = Math.max(I, before); J < nB; J++) tiles.push(I, J);
  return { blockStart, tiles: Int32Array.from(tiles) };
}

export const tileChunks = (s: Pick<PairTiles, 'tiles'>): number =>
  Math.max(1, Math.min(MAX_TILE_CHUNKS, s.tiles.length / 2));

/** The tiles of chunk c (a fixed range of the plan); writes to thread `slot`'s lists only. */
export function runTileChunk(s: PairTiles, slot: number, c: number): void {
  const nT = s.tiles.length / 2;
  const nC = tileChunks(s);
  const to = Math.floor(((c + 1) * nT) / nC);
  for (let t = Math.floor((c * nT) / nC); t < to; t++) {
    const I = s.tiles[2 * t];
    const J = s.tiles[2 * t + 1];
    measureTile(s, slot, s.blockStart[I], s.blockStart[I + 1], s.blockStart[J], s.blockStart[J + 1]);
  }
}

/** Offers the pairs (i in [I, Ie), j in [J, Je), i < j) to both lists of thread `slot`. */
function measureTile(s: PairTiles, slot: number, I: number, Ie: number, J: number, Je: number): void {
  const { n, d, x, norms, top } = s;
  const o = slot * n;
  const dots = new Float64Array(8);
  // a 2 × 4 block of dot products per pass over the coordinates (each summed in coordinate order,
  // as the brute force's), off the diagonal tiles
  let i = I;
  if (I !== J)
    for (; i + 1 < Ie; i += 2) {
      const io = i * d;
      let j = J;
      for (; j + 3 < Je; j += 4) {
        const jo = j * d;
        // the first coordinate's products start the sums (0 + a product is that product)
        let a00 = x[io] * x[jo];
        let a01 = x[io] * x[jo + d];
        let a02 = x[io] * x[jo + 2 * d];
        let a03 = x[io] * x[jo + 3 * d];
        let a10 = x[io + d] * x[jo];
        let a11 = x[io + d] * x[jo + d];
        let a12 = x[io + d] * x[jo + 2 * d];
        let a13 = x[io + d] * x[jo + 3 * d];
        for (let t = 1; t < d; t++) {
          const q0 = x[io + t];
          const q1 = x[io + d + t];
          const p0 = x[jo + t];
          const p1 = x[jo + d + t];
          const p2 = x[jo + 2 * d + t];
          const p3 = x[jo + 3 * d + t];
          a00 += q0 * p0;
          a01 += q0 * p1;
          a02 += q0 * p2;
          a03 += q0 * p3;
          a10 += q1 * p0;
          a11 += q1 * p1;
          a12 += q1 * p2;
          a13 += q1 * p3;
        }
        dots[0] = a00;
        dots[1] = a01;
        dots[2] = a02;
        dots[3] = a03;
        dots[4] = a10;
        dots[5] = a11;
        dots[6] = a12;
        dots[7] = a13;
        for (let u = 0; u < 8; u++) {
          const a = i + (u >> 2);
          const b = j + (u & 3);
          const dist = norms[a] + norms[b] - 2 * dots[u];
          if (dist <= top[o + a]) offer(s, slot, a, dist, b);
          if (dist <= top[o + b]) offer(s, slot, b, dist, a);
        }
      }
      for (; j < Je; j++) {
        pair(s, slot, i, j);
        pair(s, slot, i + 1, j);
      }
    }
  for (; i < Ie; i++) for (let j = I === J ? i + 1 : J; j < Je; j++) pair(s, slot, i, j);
}

/** One pair by the brute force's formula |a|² + |b|² − 2 a·b. */
function pair(s: PairTiles, slot: number, a: number, b: number): void {
  const { d, x, norms } = s;
  let dot = 0;
  for (let t = 0; t < d; t++) dot += x[a * d + t] * x[b * d + t];
  offerBoth(s, slot * s.n, slot, a, b, norms[a] + norms[b] - 2 * dot);
}

/** The pair (a, b) at `dist` to a's and b's lists of thread `slot` (lists from o = slot·n). */
function offerBoth(s: PairTiles, o: number, slot: number, a: number, b: number, dist: number): void {
  if (dist <= s.top[o + a]) offer(s, slot, a, dist, b);
  if (dist <= s.top[o + b]) offer(s, slot, b, dist, a);
}

/**
 * Point p at `dist` into q's list of thread `slot` if it precedes the list's last under
 * (distance, index): the root is replaced and sifted down.
 */
function offer(s: PairTiles, slot: number, q: number, dist: number, p: number): void {
  const { k, heapD, heapI, top, topIndex } = s;
  const at = slot * s.n + q;
  if (dist === top[at] && !(p < topIndex[at])) return;
  const base = at * k;
  let pos = 0;
  for (;;) {
    let c = 2 * pos + 1;
    if (c >= k) break;
    const r = c + 1;
    if (
      r < k &&
      (heapD[base + r] > heapD[base + c] ||
        (heapD[base + r] === heapD[base + c] && heapI[base + r] > heapI[base + c]))
    )
      c = r;
    const cd = heapD[base + c];
    if (!(cd > dist || (cd === dist && heapI[base + c] > p))) break;
    heapD[base + pos] = cd;
    heapI[base + pos] = heapI[base + c];
    pos = c;
  }
  heapD[base + pos] = dist;
  heapI[base + pos] = p;
  top[at] = heapD[base];
  topIndex[at] = heapI[base];
}

/**
 * Thread 0's lists become the k nearest of each point: the lists of threads 1, 2, … offered to
 * them (a pair a failed worker measured before its chunk was redone is skipped the second time).
 */
export function mergeLists(s: PairTiles, threads: number): void {
  const { n, k, heapD, heapI, top } = s;
  const seen = new Int32Array(n).fill(-1);
  for (let q = 0; q < n; q++) {
    for (let t = 0; t < k; t++) if (heapI[q * k + t] >= 0) seen[heapI[q * k + t]] = q;
    for (let slot = 1; slot < threads; slot++) {
      const base = (slot * n + q) * k;
      for (let t = 0; t < k; t++) {
        const p = heapI[base + t];
        if (p < 0 || seen[p] === q || !(heapD[base + t] <= top[q])) continue;
        offer(s, 0, q, heapD[base + t], p);
        seen[p] = q;
      }
    }
  }
}

/** Points of index ≥ firstMarked in each point's list of thread 0 (merged: mergeLists). */
export function countMarked(s: PairTiles, firstMarked: number): Int32Array {
  const { k, heapI } = s;
  return Int32Array.from({ length: s.n }, (_, q) => {
    let marked = 0;
    for (let t = 0; t < k; t++) if (heapI[q * k + t] >= firstMarked) marked++;
    return marked;
  });
}

// Worker entry: scrublet.ts starts this file (scrublet-neighbors.ts) with { task: 'scrublet-tiles', tiles, control, slot }
// (shared arrays); it writes to lists 1 + slot − CHUNK_SLOTS (threads.ts: the first CHUNK_SLOTS
// control words are the counters).
if (!isMainThread && workerData?.task === 'scrublet-tiles') {
  const { tiles, control, slot } = workerData as { tiles: PairTiles; control: Int32Array; slot: number };
  void import(new URL('../threads.ts', import.meta.url).href).then((m: typeof import('../threads')) => {
    const lists = 1 + slot - m.CHUNK_SLOTS;
    m.claimChunks(control, tileChunks(tiles), (c) => {
      Atomics.store(control, slot, c + 1);
      runTileChunk(tiles, lists, c);
      Atomics.store(control, slot, 0);
    });
  });
}
