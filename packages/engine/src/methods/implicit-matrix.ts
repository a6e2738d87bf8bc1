import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Worker } from 'node:worker_threads';
import {
  CONTROL_SLOTS,
  gramRange,
  runSplit,
  stopWorker,
  timesRange,
  transposeTimesRange,
  type ProductBuffers,
} from './sparse-products';

/** Passes over the matrix (products; a gram AᵀA·M is one) of the last fit: in all, and split with the worker thread. */
export const lastProducts = { inWorker: 0, total: 0 };

/** Below this many stored values the products run on the calling thread only. */
export const PARALLEL_MIN_NNZ = 1_000_000;

/**
 * A = (X[:, selected] − center) · scale, X stored by cell (CSC with cells as columns), never built.
 * With `threads` 2 (and a large enough matrix) each product is split at the cell where half of the
 * stored values lie; the upper part runs in a worker thread (sparse-products.ts) on shared arrays.
 * The split is the same with one thread, so results do not depend on the thread count.
 */
export class ImplicitMatrix {
  private readonly split: number;
  private buffers: ProductBuffers | undefined;

  constructor(
    readonly m: CountMatrix,
    readonly col: Int32Array,
    readonly center: Float64Array,
    readonly scale: Float64Array,
    maxWidth = 0,
    threads = 1,
  ) {
    const half = m.indptr[m.nCells] / 2;
    let lo = 0;
    let hi = m.nCells;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (m.indptr[mid] < half) lo = mid + 1;
      else hi = mid;
    }
    this.split = lo;
    if (threads > 1 && maxWidth > 0 && m.indptr[m.nCells] >= PARALLEL_MIN_NNZ) this.startWorker(maxWidth);
  }

  private startWorker(maxWidth: number): void {
    const { m, center } = this;
    const p = center.length;
    const f64 = (length: number) => new Float64Array(new SharedArrayBuffer(length * 8));
    const buffers: ProductBuffers = {
      m: {
        nCells: m.nCells,
        indptr: toShared(m.indptr),
        indices: toShared(m.indices),
        data: toShared(m.data),
      },
      col: toShared(this.col),
      scale: toShared(this.scale),
      maxWidth,
      input: f64(Math.max(m.nCells, p) * maxWidth),
      output: f64(m.nCells * maxWidth),
      upper: f64(p * maxWidth),
      upperColSum: f64(maxWidth),
      offset: f64(maxWidth),
      control: new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4)),
    };
    try {
      const worker = new Worker(new URL('./sparse-products.ts', import.meta.url), {
        workerData: { task: 'sparse-products', buffers },
      });
      worker.unref();
      worker.on('error', () => {}); // the calling thread then runs every upper half itself
      this.buffers = buffers;
    } catch {
      this.buffers = undefined;
    }
  }

  private count(inWorker: boolean): void {
    lastProducts.total++;
    if (inWorker) lastProducts.inWorker++;
  }

  /** Ends the worker thread (the products keep working on the calling thread). */
  close(): void {
    if (this.buffers) stopWorker(this.buffers.control);
    this.buffers = undefined;
  }

  private timesOffset(mat: ArrayLike<number>, w: number, offset: Float64Array): void {
    const { center, scale } = this;
    offset.fill(0);
    for (let j = 0; j < center.length; j++) {
      const f = center[j] * scale[j];
      if (f !== 0) for (let c = 0; c < w; c++) offset[c] += f * mat[j * w + c];
    }
  }

  /** A · M, M row-major p × w; result n × w. */
  times(mat: Float64Array, w: number): Float64Array {
    const { m } = this;
    const b = this.buffers;
    if (b && w <= b.maxWidth) {
      b.input.set(mat.subarray(0, this.center.length * w));
      this.timesOffset(mat, w, b.offset);
      this.count(runSplit(b, 1, w, this.split, () => timesRange(b, w, 0, this.split)));
      return b.output.slice(0, m.nCells * w);
    }
    const local: ProductBuffers = {
      ...this.localBuffers(w),
      input: mat,
      output: new Float64Array(m.nCells * w),
      offset: new Float64Array(w),
    };
    this.timesOffset(mat, w, local.offset);
    timesRange(local, w, 0, m.nCells);
    this.count(false);
    return local.output;
  }

  /** Aᵀ · Y, Y row-major n × w; result p × w. */
  transposeTimes(y: Float64Array, w: number): Float64Array {
    const { m } = this;
    const b = this.buffers;
    if (b && w <= b.maxWidth) {
      b.input.set(y.subarray(0, m.nCells * w));
      const out = new Float64Array(this.center.length * w);
      const colSum = new Float64Array(w);
      this.count(runSplit(b, 2, w, this.split, () => transposeTimesRange(b, w, 0, this.split, out, colSum)));
      return this.finishTranspose(out, colSum, b.upper, b.upperColSum, w);
    }
    return this.localTranspose(w, (local, out, colSum, from, to) =>
      transposeTimesRange({ ...local, input: y }, w, from, to, out, colSum),
    );
  }

  /**
   * Aᵀ · (A · M), M row-major p × w; result p × w. Fused per cell (the n × w intermediate is never
   * stored): one pass over the matrix and one hand-over to the worker thread instead of two.
   */
  gram(mat: Float64Array, w: number): Float64Array {
    const b = this.buffers;
    if (b && w <= b.maxWidth) {
      b.input.set(mat.subarray(0, this.center.length * w));
      this.timesOffset(mat, w, b.offset);
      const out = new Float64Array(this.center.length * w);
      const colSum = new Float64Array(w);
      this.count(runSplit(b, 3, w, this.split, () => gramRange(b, w, 0, this.split, out, colSum)));
      return this.finishTranspose(out, colSum, b.upper, b.upperColSum, w);
    }
    const offset = new Float64Array(w);
    this.timesOffset(mat, w, offset);
    return this.localTranspose(w, (local, out, colSum, from, to) =>
      gramRange({ ...local, input: mat, offset }, w, from, to, out, colSum),
    );
  }

  /** Both halves on the calling thread, in the same order as with the worker. */
  private localTranspose(
    w: number,
    range: (local: ProductBuffers, out: Float64Array, colSum: Float64Array, from: number, to: number) => void,
  ): Float64Array {
    const p = this.center.length;
    const local = this.localBuffers(w);
    const out = new Float64Array(p * w);
    const colSum = new Float64Array(w);
    const upper = new Float64Array(p * w);
    const upperColSum = new Float64Array(w);
    range(local, out, colSum, 0, this.split);
    range(local, upper, upperColSum, this.split, this.m.nCells);
    this.count(false);
    return this.finishTranspose(out, colSum, upper, upperColSum, w);
  }

  /** out += upper half; then the centring term −scale·center·Σ rows. */
  private finishTranspose(
    out: Float64Array,
    colSum: Float64Array,
    upper: Float64Array,
    upperColSum: Float64Array,
    w: number,
  ): Float64Array {
    const { center, scale } = this;
    const p = center.length;
    for (let t = 0; t < p * w; t++) out[t] += upper[t];
    for (let c = 0; c < w; c++) colSum[c] += upperColSum[c];
    for (let j = 0; j < p; j++) {
      const f = center[j] * scale[j];
      if (f !== 0) for (let c = 0; c < w; c++) out[j * w + c] -= f * colSum[c];
    }
    return out;
  }

  private localBuffers(w: number): ProductBuffers {
    const empty = new Float64Array(0);
    return {
      m: this.m,
      col: this.col,
      scale: this.scale,
      maxWidth: w,
      input: empty,
      output: empty,
      upper: empty,
      upperColSum: empty,
      offset: empty,
      control: new Int32Array(CONTROL_SLOTS),
    };
  }
}

/** The array itself when it is already backed by a SharedArrayBuffer, else a shared copy. */
export function toShared<T extends Float64Array | Float32Array | Uint32Array | Int32Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Kind = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new Kind(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
