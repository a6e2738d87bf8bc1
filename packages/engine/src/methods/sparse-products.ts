import { isMainThread, workerData } from 'node:worker_threads';

/**
 * The two sparse × dense products of sparse-pca's implicit matrix A = (X[:, genes] − center)·scale
 * over a range of cells, and the worker threads that share each product with the calling thread
 * (issue 14; issue 33: threads that share a loaded machine). The cells are cut into `nChunks`
 * chunks of about equal non-zeros (fixed by the matrix alone, never by the thread count); the
 * calling thread and the workers claim chunks in increasing order from a shared counter until none
 * is left, so a thread that the scheduler starves holds up at most the chunk it is on. Nobody
 * spins: idle workers sleep in Atomics.wait on a generation counter, and the calling thread, once
 * the counter is exhausted, sleeps in Atomics.wait until the last chunk is done (the protocol of
 * `claimChunks` in ../threads.ts, written out here because this file imports nothing of ours).
 * The AᵀY and AᵀA·M products leave one partial sum per chunk, added in chunk order afterwards, so
 * the result does not depend on which thread ran which chunk nor on how many threads there were.
 * Everything the products touch lives in SharedArrayBuffers. This file imports nothing of ours
 * (Node loads it directly as a worker, type annotations stripped) and uses erasable TypeScript only.
 */
export interface SharedCsr {
  nCells: number;
  indptr: Float64Array;
  /** 2-byte gene indices for a matrix of at most 65,536 genes (CsrMatrix in formats/matrix.ts). */
  indices: Uint32Array | Uint16Array;
  /** The values (empty when `countValues` holds them). */
  data: Float32Array;
  /** The values held as counts, decoded where the products read them (issue 33: the streamed PCA). */
  countValues?: CountValues;
}

/**
 * Values held as 2-byte counts (the streamed PCA's HVG submatrix, issue 33: 4 B per value with the
 * 2-byte gene index instead of 6): value t of cell c is min(v, cap[gene]) where v is
 * Math.fround(Math.log1p(counts[t] × factor[c])) — logNormalize's float32 value, so the products
 * see the same bits as from `data` — taken from the cell's table for counts below
 * COUNT_TABLE_SIZE (most single-cell counts are 1–3) and computed for larger ones.
 */
export interface CountValues {
  counts: Uint16Array;
  /** Per cell: 1e4 / its total (stream/views.ts). */
  factor: Float64Array;
  /** Per cell, COUNT_TABLE_SIZE values: v of counts 0 … COUNT_TABLE_SIZE − 1. */
  table: Float32Array;
  /** Per gene: the largest value (scaledSparsePca's clipping, float32; +Infinity: none). */
  cap: Float32Array;
}

/** Counts per cell whose value CountValues keeps in a table (64 B per cell). */
export const COUNT_TABLE_SIZE = 16;

/**
 * CountValues over `counts` with each cell's table computed from `factor`, nothing clipped; in
 * shared memory (the worker threads read them without a copy).
 */
export function countValues(counts: Uint16Array, factor: Float64Array, nGenes: number): CountValues {
  const f = new Float64Array(new SharedArrayBuffer(factor.length * 8));
  f.set(factor);
  const table = new Float32Array(new SharedArrayBuffer(factor.length * COUNT_TABLE_SIZE * 4));
  for (let c = 0; c < factor.length; c++)
    for (let n = 0; n < COUNT_TABLE_SIZE; n++) table[c * COUNT_TABLE_SIZE + n] = Math.log1p(n * factor[c]);
  const cap = new Float32Array(new SharedArrayBuffer(nGenes * 4)).fill(Infinity);
  return { counts, factor: f, table, cap };
}

/**
 * Room for the values of the longest cell of [from, to) as `cellValues` decodes them (empty when
 * the matrix holds its values in `data`).
 */
export function valueScratch(m: SharedCsr, from: number, to: number): Float32Array {
  if (!m.countValues) return new Float32Array(0);
  let longest = 0;
  for (let c = from; c < to; c++) longest = Math.max(longest, m.indptr[c + 1] - m.indptr[c]);
  return new Float32Array(longest);
}

/**
 * The values of cell `cell`: `m.data` (the cell's value t at [t]), or decoded from the counts into
 * `scratch` (valueScratch) at [t − indptr[cell]].
 */
export function cellValues(m: SharedCsr, cell: number, scratch: Float32Array): Float32Array {
  const v = m.countValues;
  if (!v) return m.data;
  const { counts, table, cap } = v;
  const f = v.factor[cell];
  const t0 = cell * COUNT_TABLE_SIZE;
  const start = m.indptr[cell];
  const end = m.indptr[cell + 1];
  for (let t = start; t < end; t++) {
    const n = counts[t];
    const x = n < COUNT_TABLE_SIZE ? table[t0 + n] : Math.fround(Math.log1p(n * f));
    const c = cap[m.indices[t]];
    scratch[t - start] = x < c ? x : c;
  }
  return scratch;
}

export interface ProductBuffers {
  m: SharedCsr;
  /** gene → selected column (−1 = not selected) */
  col: Int32Array;
  scale: Float64Array;
  /** Width (columns) of the dense operands, at most `maxWidth`. */
  maxWidth: number;
  /** Dense input: times() and gram() read p × w, transposeTimes() reads n × w. */
  input: Float64Array;
  /** times() output n × w. */
  output: Float64Array;
  /** Chunk c covers cells [chunkStart[c], chunkStart[c + 1]); nChunks + 1 entries. */
  chunkStart: Int32Array;
  /** transposeTimes() / gram() partial sums, one p × maxWidth block per chunk, and their column sums (maxWidth per chunk). */
  partial: Float64Array;
  partialColSum: Float64Array;
  /** Offsets subtracted from each times() row (w). */
  offset: Float64Array;
  /** [generation, stop, op (1 times, 2 transposeTimes, 3 gram), width, next chunk, chunks done] */
  control: Int32Array;
}

const GEN = 0;
const STOP = 1;
const OP = 2;
const WIDTH = 3;
const NEXT = 4;
const DONE = 5;
export const CONTROL_SLOTS = 6;

/**
 * Chunk boundaries: cell c·nnz/nChunks-th non-zero for c = 0 … nChunks (the first cell whose
 * indptr reaches it), so nChunks = 2 is the former half-non-zero split.
 */
export function chunkStarts(indptr: ArrayLike<number>, nCells: number, nChunks: number): Int32Array {
  const nnz = indptr[nCells];
  const out = new Int32Array(new SharedArrayBuffer((nChunks + 1) * 4));
  for (let c = 1; c < nChunks; c++) {
    const target = (nnz * c) / nChunks;
    let lo = out[c - 1];
    let hi = nCells;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (indptr[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    out[c] = lo;
  }
  out[nChunks] = nCells;
  return out;
}

/** Rows [from, to) of A · M (M = input, p × w): out[cell] = Σ x·scale·M[j] − offset. */
export function timesRange(b: ProductBuffers, w: number, from: number, to: number): void {
  const { m, col, scale, input, output, offset } = b;
  const scratch = valueScratch(m, from, to);
  for (let cell = from; cell < to; cell++) {
    const o = cell * w;
    for (let c = 0; c < w; c++) output[o + c] = -offset[c];
    const values = cellValues(m, cell, scratch);
    const shift = m.countValues ? m.indptr[cell] : 0;
    for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
      const j = col[m.indices[t]];
      if (j < 0) continue;
      addScaledRow(output, o, input, j * w, values[t - shift] * scale[j], w);
    }
  }
}

/** Σ over cells [from, to) of Aᵀ·Y without the centring term (Y = input, n × w), into `out` (p × w) and `colSum`. */
export function transposeTimesRange(
  b: ProductBuffers,
  w: number,
  from: number,
  to: number,
  out: Float64Array,
  colSum: Float64Array,
): void {
  const { m, col, scale, input } = b;
  out.fill(0, 0, (out.length / b.maxWidth) * w);
  colSum.fill(0);
  const scratch = valueScratch(m, from, to);
  for (let cell = from; cell < to; cell++) {
    const o = cell * w;
    for (let c = 0; c < w; c++) colSum[c] += input[o + c];
    const values = cellValues(m, cell, scratch);
    const shift = m.countValues ? m.indptr[cell] : 0;
    for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
      const j = col[m.indices[t]];
      if (j < 0) continue;
      addScaledRow(out, j * w, input, o, values[t - shift] * scale[j], w);
    }
  }
}

/**
 * Σ over cells [from, to) of Aᵀ·(A·M) without the centring term of Aᵀ (M = input, p × w), into
 * `out` (p × w) and `colSum` (the column sums of A·M over those cells): per cell, its row of A·M
 * (w values, minus `offset`) is formed and scattered back at once — never stored for all cells.
 */
export const gramRange: typeof transposeTimesRange = (b, w, from, to, out, colSum) => {
  const { m, col, scale, input, offset } = b;
  out.fill(0, 0, (out.length / b.maxWidth) * w);
  colSum.fill(0);
  const row = new Float64Array(w);
  const scratch = valueScratch(m, from, to);
  for (let cell = from; cell < to; cell++) {
    for (let c = 0; c < w; c++) row[c] = -offset[c];
    const start = m.indptr[cell];
    const end = m.indptr[cell + 1];
    const values = cellValues(m, cell, scratch);
    const shift = m.countValues ? start : 0;
    for (let t = start; t < end; t++) {
      const j = col[m.indices[t]];
      if (j >= 0) addScaledRow(row, 0, input, j * w, values[t - shift] * scale[j], w);
    }
    for (let c = 0; c < w; c++) colSum[c] += row[c];
    for (let t = start; t < end; t++) {
      const j = col[m.indices[t]];
      if (j >= 0) addScaledRow(out, j * w, row, 0, values[t - shift] * scale[j], w);
    }
  }
};

/** dst[d0 … d0+w) += v · src[s0 … s0+w), unrolled by 4. */
export function addScaledRow(
  dst: Float64Array,
  d0: number,
  src: Float64Array,
  s0: number,
  v: number,
  w: number,
): void {
  let c = 0;
  for (; c + 4 <= w; c += 4) {
    dst[d0 + c] += v * src[s0 + c];
    dst[d0 + c + 1] += v * src[s0 + c + 1];
    dst[d0 + c + 2] += v * src[s0 + c + 2];
    dst[d0 + c + 3] += v * src[s0 + c + 3];
  }
  for (; c < w; c++) dst[d0 + c] += v * src[s0 + c];
}

/** Chunk c of the current operation (cells chunkStart[c] … chunkStart[c + 1]), by whichever thread claimed it. */
export function runChunk(b: ProductBuffers, c: number): void {
  const ctl = b.control;
  const op = Atomics.load(ctl, OP);
  const w = Atomics.load(ctl, WIDTH);
  const from = b.chunkStart[c];
  const to = b.chunkStart[c + 1];
  if (op === 1) return timesRange(b, w, from, to);
  const p = b.partial.length / b.maxWidth / (b.chunkStart.length - 1);
  const out = b.partial.subarray(c * p * b.maxWidth, (c + 1) * p * b.maxWidth);
  const colSum = b.partialColSum.subarray(c * b.maxWidth, c * b.maxWidth + w);
  (op === 2 ? transposeTimesRange : gramRange)(b, w, from, to, out, colSum);
}

/**
 * Claims chunks of the current operation until none is left (the calling thread and the workers
 * alike); returns how many this thread ran. The thread that completes the last chunk wakes the
 * calling thread.
 */
export function claimProductChunks(b: ProductBuffers): number {
  const ctl = b.control;
  const n = b.chunkStart.length - 1;
  let ran = 0;
  for (let c = Atomics.add(ctl, NEXT, 1); c < n; c = Atomics.add(ctl, NEXT, 1)) {
    runChunk(b, c);
    ran++;
    if (Atomics.add(ctl, DONE, 1) + 1 === n) Atomics.notify(ctl, DONE);
  }
  return ran;
}

/** Control block of a fresh set of buffers: no operation published (the chunk counter is exhausted). */
export function newControl(nChunks: number): Int32Array {
  const ctl = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4));
  ctl[NEXT] = nChunks;
  ctl[DONE] = nChunks;
  return ctl;
}

/**
 * Calling thread: publishes an operation (inputs already in place), wakes the workers, claims
 * chunks with them, then sleeps until the chunks claimed by others are done. Returns how many
 * chunks other threads ran.
 */
export function runChunked(b: ProductBuffers, op: 1 | 2 | 3, w: number): number {
  const ctl = b.control;
  const n = b.chunkStart.length - 1;
  Atomics.store(ctl, OP, op);
  Atomics.store(ctl, WIDTH, w);
  // DONE before NEXT: a worker still leaving the previous claim loop may claim from the new counter
  Atomics.store(ctl, DONE, 0);
  Atomics.store(ctl, NEXT, 0);
  Atomics.add(ctl, GEN, 1);
  Atomics.notify(ctl, GEN);
  const ran = claimProductChunks(b);
  for (let d = Atomics.load(ctl, DONE); d < n; d = Atomics.load(ctl, DONE)) Atomics.wait(ctl, DONE, d);
  return n - ran;
}

/** Asks the workers to leave their loop (they exit; terminate() is not needed). */
export function stopWorker(ctl: Int32Array): void {
  Atomics.store(ctl, STOP, 1);
  Atomics.add(ctl, GEN, 1);
  Atomics.notify(ctl, GEN);
}

// Worker entry: implicit-matrix starts this file with { task: 'sparse-products', buffers }.
if (!isMainThread && workerData?.task === 'sparse-products') {
  const b = workerData.buffers as ProductBuffers;
  const ctl = b.control;
  for (;;) {
    const seen = Atomics.load(ctl, GEN);
    if (Atomics.load(ctl, STOP)) break;
    claimProductChunks(b);
    Atomics.wait(ctl, GEN, seen);
  }
}
