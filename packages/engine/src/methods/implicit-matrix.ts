import type { CsrMatrix } from '@cellcloud/formats/matrix';
import { Worker } from 'node:worker_threads';
import {
  chunkStarts,
  gramRange,
  newControl,
  runChunked,
  stopWorker,
  timesRange,
  transposeTimesRange,
  type CountValues,
  type ProductBuffers,
} from './sparse-products';

/**
 * A cell-major matrix whose values the products read from `data`, or from `countValues` when it
 * has them (2-byte counts decoded where they are read: the streamed PCA's HVG submatrix, issue 33).
 */
export type ProductMatrix = CsrMatrix & { countValues?: CountValues };

/** Passes over the matrix (products; a gram AᵀA·M is one) of the last fit: in all, and shared with a worker thread. */
export const lastProducts = { inWorker: 0, total: 0 };

/** Below this many stored values the products run on the calling thread only (in two chunks, as before issue 33). */
export const PARALLEL_MIN_NNZ = 1_000_000;
/** Stored values per chunk of a product above PARALLEL_MIN_NNZ (docs/engine-scaling.md#what-uses-both-cores). */
export const PRODUCT_CHUNK_NNZ = 262_144;
/** At most this many chunks, and their partial sums (p × width each) at most PARTIAL_BYTES together. */
export const MAX_PRODUCT_CHUNKS = 32;
const PARTIAL_BYTES = 64 * 2 ** 20;
/**
 * Columns of the scores A·V computed per pass by `scores` (and the shared output's width when the
 * products take no cells-side operands): 25 float64 per cell instead of the Krylov block's 60.
 */
export const SCORE_COLUMNS = 25;

/**
 * Chunks of a product: a function of the matrix and the operand width only — never of the thread
 * count — so the chunk partial sums, and their sum in chunk order, are the same however many
 * threads share them.
 */
export function productChunks(nnz: number, p: number, maxWidth: number): number {
  if (nnz < PARALLEL_MIN_NNZ) return 2;
  const byMemory = Math.floor(PARTIAL_BYTES / (8 * Math.max(1, p) * Math.max(1, maxWidth)));
  return Math.max(2, Math.min(Math.ceil(nnz / PRODUCT_CHUNK_NNZ), MAX_PRODUCT_CHUNKS, byMemory));
}

/**
 * A = (X[:, selected] − center) · scale, X stored by cell (CSC with cells as columns), never built.
 * Each product is cut into chunks of cells of about equal non-zeros (productChunks); with
 * `threads` > 1 (and a large enough matrix) `threads − 1` worker threads (sparse-products.ts) claim
 * chunks alongside the calling thread on shared arrays. Partial sums are added in chunk order
 * whoever ran them, so results do not depend on the thread count.
 */
export class ImplicitMatrix {
  private readonly chunkStart: Int32Array;
  private buffers: ProductBuffers | undefined;

  constructor(
    readonly m: ProductMatrix,
    readonly col: Int32Array,
    readonly center: Float64Array,
    readonly scale: Float64Array,
    maxWidth = 0,
    threads = 1,
    /**
     * false: the caller multiplies only genes-side operands (gram, `scores`: the block Krylov fit),
     * so the worker threads' shared input is p × maxWidth and their output n × SCORE_COLUMNS
     * (transposeTimes and wider `times` then run on the calling thread) — 960 B per cell less.
     */
    readonly cellOperands = true,
  ) {
    const nnz = m.indptr[m.nCells];
    this.chunkStart = chunkStarts(m.indptr, m.nCells, productChunks(nnz, center.length, maxWidth));
    if (threads > 1 && maxWidth > 0 && nnz >= PARALLEL_MIN_NNZ) this.startWorkers(maxWidth, threads - 1);
  }

  private startWorkers(maxWidth: number, nWorkers: number): void {
    const { m, center, chunkStart } = this;
    const p = center.length;
    const nChunks = chunkStart.length - 1;
    const f64 = (length: number) => new Float64Array(new SharedArrayBuffer(length * 8));
    const buffers: ProductBuffers = {
      m: {
        nCells: m.nCells,
        indptr: toShared(m.indptr),
        indices: toShared(m.indices),
        data: toShared(m.data),
        countValues: m.countValues && {
          counts: toShared(m.countValues.counts),
          factor: toShared(m.countValues.factor),
          table: toShared(m.countValues.table),
          cap: toShared(m.countValues.cap),
        },
      },
      col: toShared(this.col),
      scale: toShared(this.scale),
      maxWidth,
      input: f64((this.cellOperands ? Math.max(m.nCells, p) : p) * maxWidth),
      output: f64(m.nCells * (this.cellOperands ? maxWidth : Math.min(maxWidth, SCORE_COLUMNS))),
      chunkStart,
      partial: f64(nChunks * p * maxWidth),
      partialColSum: f64(nChunks * maxWidth),
      offset: f64(maxWidth),
      control: newControl(nChunks),
    };
    let started = 0;
    for (let t = 0; t < nWorkers; t++) {
      try {
        const worker = new Worker(new URL('./sparse-products.ts', import.meta.url), {
          workerData: { task: 'sparse-products', buffers },
        });
        worker.unref();
        worker.on('error', () => {}); // the other threads then claim every chunk
        started++;
      } catch {
        break;
      }
    }
    if (started > 0) this.buffers = buffers;
    else stopWorker(buffers.control);
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
    if (b && w <= b.maxWidth && m.nCells * w <= b.output.length) return this.timesShared(b, mat, w).slice();
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

  /**
   * A · V as float32 (V row-major p × k; result n × k): SCORE_COLUMNS columns per pass, each
   * column's sums in the same order as `times`, so the same values as Float32Array.from(times(V, k))
   * without its n × k float64 copy.
   */
  scores(v: Float64Array, k: number): Float32Array {
    const { m } = this;
    const p = this.center.length;
    const out = new Float32Array(m.nCells * k);
    for (let c0 = 0; c0 < k; c0 += SCORE_COLUMNS) {
      const w = Math.min(SCORE_COLUMNS, k - c0);
      const part = new Float64Array(p * w);
      for (let j = 0; j < p; j++) for (let c = 0; c < w; c++) part[j * w + c] = v[j * k + c0 + c];
      const b = this.buffers;
      const shared = b !== undefined && w <= b.maxWidth && m.nCells * w <= b.output.length;
      const y = shared ? this.timesShared(b, part, w) : this.times(part, w);
      for (let i = 0; i < m.nCells; i++) for (let c = 0; c < w; c++) out[i * k + c0 + c] = y[i * w + c];
    }
    return out;
  }

  /** A · M on the worker threads' buffers, the result left in (a view of) their output. */
  private timesShared(b: ProductBuffers, mat: Float64Array, w: number): Float64Array {
    b.input.set(mat.subarray(0, this.center.length * w));
    this.timesOffset(mat, w, b.offset);
    this.count(runChunked(b, 1, w) > 0);
    return b.output.subarray(0, this.m.nCells * w);
  }

  /** Aᵀ · Y, Y row-major n × w; result p × w. */
  transposeTimes(y: Float64Array, w: number): Float64Array {
    const { m } = this;
    const b = this.buffers;
    if (b && w <= b.maxWidth && m.nCells * w <= b.input.length) {
      b.input.set(y.subarray(0, m.nCells * w));
      this.count(runChunked(b, 2, w) > 0);
      return this.finishTranspose(this.sumPartials(b, w), w);
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
      this.count(runChunked(b, 3, w) > 0);
      return this.finishTranspose(this.sumPartials(b, w), w);
    }
    const offset = new Float64Array(w);
    this.timesOffset(mat, w, offset);
    return this.localTranspose(w, (local, out, colSum, from, to) =>
      gramRange({ ...local, input: mat, offset }, w, from, to, out, colSum),
    );
  }

  /** Every chunk on the calling thread, each partial sum added in chunk order as with workers. */
  private localTranspose(
    w: number,
    range: (local: ProductBuffers, out: Float64Array, colSum: Float64Array, from: number, to: number) => void,
  ): Float64Array {
    const p = this.center.length;
    const starts = this.chunkStart;
    const local = this.localBuffers(w);
    const sum = { out: new Float64Array(p * w), colSum: new Float64Array(w) };
    const part = new Float64Array(p * w);
    const partColSum = new Float64Array(w);
    range(local, sum.out, sum.colSum, starts[0], starts[1]);
    for (let c = 1; c + 1 < starts.length; c++) {
      range(local, part, partColSum, starts[c], starts[c + 1]);
      addInto(sum, part, partColSum, p * w, w);
    }
    this.count(false);
    return this.finishTranspose(sum, w);
  }

  /** The chunks' partial sums (p × w each, maxWidth apart) added in chunk order. */
  private sumPartials(b: ProductBuffers, w: number): { out: Float64Array; colSum: Float64Array } {
    const pw = this.center.length * w;
    const stride = this.center.length * b.maxWidth;
    const sum = { out: b.partial.slice(0, pw), colSum: b.partialColSum.slice(0, w) };
    for (let c = 1; c + 1 < b.chunkStart.length; c++) {
      const part = b.partial.subarray(c * stride, c * stride + pw);
      addInto(sum, part, b.partialColSum.subarray(c * b.maxWidth, c * b.maxWidth + w), pw, w);
    }
    return sum;
  }

  /** The centring term −scale·center·Σ rows, on the summed chunks. */
  private finishTranspose(sum: { out: Float64Array; colSum: Float64Array }, w: number): Float64Array {
    const { center, scale } = this;
    const { out, colSum } = sum;
    for (let j = 0; j < center.length; j++) {
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
      chunkStart: this.chunkStart,
      partial: empty,
      partialColSum: empty,
      offset: empty,
      control: new Int32Array(0),
    };
  }
}

/** sum += part (the first `pw` values) and its column sums (`w`). */
function addInto(
  sum: { out: Float64Array; colSum: Float64Array },
  part: Float64Array,
  partColSum: Float64Array,
  pw: number,
  w: number,
): void {
  for (let t = 0; t < pw; t++) sum.out[t] += part[t];
  for (let c = 0; c < w; c++) sum.colSum[c] += partColSum[c];
}

/** The array itself when it is already backed by a SharedArrayBuffer, else a shared copy. */
export function toShared<T extends Float64Array | Float32Array | Uint32Array | Uint16Array | Int32Array>(
  a: T,
): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Kind = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new Kind(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
