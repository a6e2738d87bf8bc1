import { isMainThread, workerData } from 'node:worker_threads';

/**
 * The two sparse × dense products of sparse-pca's implicit matrix A = (X[:, genes] − center)·scale
 * over a range of cells, and a worker thread that runs the upper range of each product while the
 * calling thread runs the lower one (both cores; issue 14). Everything the products touch lives in
 * SharedArrayBuffers; the calling thread stays synchronous: it wakes the worker with Atomics, does
 * its half, then either waits for the worker's half or — if the worker has not claimed it yet (still
 * starting, or failed) — does it itself. The split and the order of the final sums are fixed, so
 * the result does not depend on which thread ran which half. This file imports nothing of ours
 * (Node loads it directly as a worker, type annotations stripped) and uses erasable TypeScript only.
 */
export interface SharedCsr {
  nCells: number;
  indptr: Float64Array;
  indices: Uint32Array;
  data: Float32Array;
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
  /** transposeTimes() partial sums of the upper cell range: p × w, and its column sums (w). */
  upper: Float64Array;
  upperColSum: Float64Array;
  /** Offsets subtracted from each times() row (w). */
  offset: Float64Array;
  /** [generation, claim, done, stop, op (1 times, 2 transposeTimes, 3 gram), width, split cell] */
  control: Int32Array;
}

const GEN = 0;
const CLAIM = 1;
const DONE = 2;
const STOP = 3;
const OP = 4;
const WIDTH = 5;
const SPLIT = 6;
export const CONTROL_SLOTS = 7;

/** Rows [from, to) of A · M (M = input, p × w): out[cell] = Σ x·scale·M[j] − offset. */
export function timesRange(b: ProductBuffers, w: number, from: number, to: number): void {
  const { m, col, scale, input, output, offset } = b;
  for (let cell = from; cell < to; cell++) {
    const o = cell * w;
    for (let c = 0; c < w; c++) output[o + c] = -offset[c];
    for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
      const j = col[m.indices[t]];
      if (j < 0) continue;
      addScaledRow(output, o, input, j * w, m.data[t] * scale[j], w);
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
  for (let cell = from; cell < to; cell++) {
    const o = cell * w;
    for (let c = 0; c < w; c++) colSum[c] += input[o + c];
    for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
      const j = col[m.indices[t]];
      if (j < 0) continue;
      addScaledRow(out, j * w, input, o, m.data[t] * scale[j], w);
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
  for (let cell = from; cell < to; cell++) {
    for (let c = 0; c < w; c++) row[c] = -offset[c];
    const start = m.indptr[cell];
    const end = m.indptr[cell + 1];
    for (let t = start; t < end; t++) {
      const j = col[m.indices[t]];
      if (j >= 0) addScaledRow(row, 0, input, j * w, m.data[t] * scale[j], w);
    }
    for (let c = 0; c < w; c++) colSum[c] += row[c];
    for (let t = start; t < end; t++) {
      const j = col[m.indices[t]];
      if (j >= 0) addScaledRow(out, j * w, row, 0, m.data[t] * scale[j], w);
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

/** The upper half of the current operation (cells [split, n)), by whichever thread claimed it. */
export function runUpper(b: ProductBuffers): void {
  const ctl = b.control;
  const w = ctl[WIDTH];
  const split = ctl[SPLIT];
  if (ctl[OP] === 1) timesRange(b, w, split, b.m.nCells);
  else if (ctl[OP] === 2) transposeTimesRange(b, w, split, b.m.nCells, b.upper, b.upperColSum);
  else gramRange(b, w, split, b.m.nCells, b.upper, b.upperColSum);
}

/**
 * Calling thread: publishes an operation (inputs already in place), runs the lower range through
 * `lower`, then waits for the worker's upper range or runs it itself if the worker did not claim
 * it. Returns whether the worker ran the upper range.
 */
export function runSplit(
  b: ProductBuffers,
  op: 1 | 2 | 3,
  w: number,
  split: number,
  lower: () => void,
): boolean {
  const ctl = b.control;
  ctl[OP] = op;
  ctl[WIDTH] = w;
  ctl[SPLIT] = split;
  Atomics.store(ctl, DONE, 0);
  Atomics.store(ctl, CLAIM, 0);
  Atomics.add(ctl, GEN, 1);
  Atomics.notify(ctl, GEN);
  lower();
  if (Atomics.compareExchange(ctl, CLAIM, 0, 1) === 0) {
    runUpper(b);
    return false;
  }
  while (Atomics.load(ctl, DONE) === 0) Atomics.wait(ctl, DONE, 0);
  return true;
}

/** Asks the worker to leave its loop (it exits; terminate() is not needed). */
export function stopWorker(ctl: Int32Array): void {
  Atomics.store(ctl, STOP, 1);
  Atomics.add(ctl, GEN, 1);
  Atomics.notify(ctl, GEN);
}

// Worker entry: sparse-pca starts this file with { task: 'sparse-products', buffers }.
if (!isMainThread && workerData?.task === 'sparse-products') {
  const b = workerData.buffers as ProductBuffers;
  const ctl = b.control;
  let seen = 0;
  for (;;) {
    Atomics.wait(ctl, GEN, seen);
    seen = Atomics.load(ctl, GEN);
    if (Atomics.load(ctl, STOP)) break;
    if (Atomics.compareExchange(ctl, CLAIM, 0, 1) !== 0) continue;
    runUpper(b);
    Atomics.store(ctl, DONE, 1);
    Atomics.notify(ctl, DONE);
  }
}
