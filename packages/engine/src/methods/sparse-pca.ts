import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Worker } from 'node:worker_threads';
import { orthonormalizeColumns, symmetricEigen } from './linalg';
import { Random } from './random';
import {
  CONTROL_SLOTS,
  runSplit,
  stopWorker,
  timesRange,
  transposeTimesRange,
  type ProductBuffers,
} from './sparse-products';

/**
 * PCA of a sparse cells × genes matrix restricted to selected genes, with implicit centering and
 * scaling (the dense matrix is never built): A = (X[:, genes] − center) · scale.
 * Randomised SVD (Halko et al. 2011) with power iterations; fitted rotation can project other
 * matrices (Scrublet projects simulated doublets onto the observed cells' PCs).
 */
export interface SparsePcaFit {
  /** row-major nCells × nPcs scores */
  pcs: Float32Array;
  /** row-major nSelected × nPcs loadings */
  rotation: Float64Array;
  /** variance explained by each PC (ddof = 1) */
  variance: Float64Array;
  nPcs: number;
  /** Scores of another matrix (same genes) on the fitted components. */
  project(m: CountMatrix): Float32Array;
}

export interface SparsePcaOptions {
  /** per selected gene, subtracted before scaling (default: no centering) */
  center?: Float64Array;
  /** per selected gene multiplier (default 1) */
  scale?: Float64Array;
  seed?: number;
  powerIterations?: number;
  oversample?: number;
  /** Keep iterating past `powerIterations`, up to this many, until the leading Ritz values settle. */
  maxPowerIterations?: number;
  /** How many leading components must have converged (default 20). */
  convergedPcs?: number;
  /** Relative change of those Ritz values between two iterations below which they have (default 1e-7). */
  tolerance?: number;
  /**
   * 2: the sparse products of the fit are split over the calling thread and a worker thread
   * (matrices with ≥ PARALLEL_MIN_NNZ values; copied to shared memory unless they already are);
   * 1: calling thread only. Same result either way. Default: 2 when the matrix's values and
   * indices are already in SharedArrayBuffers (the PCA step, Scrublet), else 1.
   */
  threads?: number;
}

/** Power iterations done by the last sparsePca call (for logs and benchmarks). */
export let lastPowerIterations = 0;
/** Sparse products of the last sparsePca call whose upper half ran in the worker thread, of all. */
export const lastProducts = { inWorker: 0, total: 0 };

export function sparsePca(
  m: CountMatrix,
  genes: Int32Array,
  nPcs: number,
  opts: SparsePcaOptions = {},
): SparsePcaFit {
  const p = genes.length;
  const n = m.nCells;
  const k = Math.min(nPcs, p, n);
  const l = Math.min(k + (opts.oversample ?? 10), p, n);
  const col = new Int32Array(m.nGenes).fill(-1);
  genes.forEach((g, j) => (col[g] = j));
  const center = opts.center ?? new Float64Array(p);
  const scale = opts.scale ?? new Float64Array(p).fill(1);
  // two threads by default only for a matrix already in shared memory (no copy of the caller's data)
  const shared = m.data.buffer instanceof SharedArrayBuffer && m.indices.buffer instanceof SharedArrayBuffer;
  const op = new ImplicitMatrix(m, col, center, scale, l, opts.threads ?? (shared ? 2 : 1));
  lastProducts.inWorker = 0;
  lastProducts.total = 0;
  try {
    return fitPca(op, p, n, k, l, opts);
  } finally {
    op.close();
  }
}

function fitPca(
  op: ImplicitMatrix,
  p: number,
  n: number,
  k: number,
  l: number,
  opts: SparsePcaOptions,
): SparsePcaFit {
  const { m, col, center, scale } = op;
  const rng = new Random(opts.seed ?? 0);

  // range finder: Y = A Ω, then power iterations with re-orthonormalisation
  const omega = new Float64Array(p * l);
  for (let t = 0; t < omega.length; t++) omega[t] = rng.normal();
  let q = op.times(omega, l); // n × l row-major
  q = orthoRowMajor(q, n, l);
  const iters = opts.powerIterations ?? 4;
  const maxIters = Math.max(iters, opts.maxPowerIterations ?? iters);
  const watch = Math.min(k, opts.convergedPcs ?? 20);
  let z: Float64Array | undefined;
  let ritz: Float64Array | undefined;
  // Only the p × l side is re-orthonormalised inside the loop: Aᵀ·(A z) with orthonormal z spreads
  // the column scales by σ₁²/σₗ² only, well within double precision, and orthonormalising the tall
  // n × l side (n up to 10⁵) cost as much as the sparse products. Q is orthonormalised once at the end.
  // Past `iters`, iterations continue (up to maxPowerIterations) until the Ritz values of the
  // leading `convergedPcs` components (eigenvalues of zᵀAᵀAz, cheap: p × l²) settle.
  let done = 0;
  for (; done < maxIters; done++) {
    const t = op.transposeTimes(q, l);
    if (z && done >= iters) {
      const h = new Float64Array(l * l);
      for (let r = 0; r < p; r++) {
        for (let a = 0; a < l; a++) {
          const za = z[r * l + a];
          if (za === 0) continue;
          for (let b = 0; b < l; b++) h[a * l + b] += za * t[r * l + b];
        }
      }
      for (let a = 0; a < l; a++)
        for (let b = 0; b < a; b++) h[a * l + b] = h[b * l + a] = (h[a * l + b] + h[b * l + a]) / 2;
      const values = symmetricEigen(h, l).values;
      let change = 0;
      if (ritz)
        for (let c = 0; c < watch; c++)
          change = Math.max(change, Math.abs(values[c] - ritz[c]) / Math.max(1e-300, Math.abs(values[c])));
      const converged = ritz !== undefined && change < (opts.tolerance ?? 1e-7);
      ritz = values;
      if (converged) {
        z = orthoRowMajor(t, p, l);
        q = op.times(z, l);
        done++;
        break;
      }
    }
    z = orthoRowMajor(t, p, l);
    q = op.times(z, l);
  }
  lastPowerIterations = done;
  if (iters > 0) q = orthoRowMajor(q, n, l);
  // B = Qᵀ A (l × p) = (Aᵀ Q)ᵀ; eigen of B Bᵀ
  const bt = op.transposeTimes(q, l); // p × l row-major = Bᵀ
  const g = new Float64Array(l * l);
  for (let r = 0; r < p; r++) {
    for (let a = 0; a < l; a++) {
      const va = bt[r * l + a];
      if (va === 0) continue;
      for (let b = a; b < l; b++) g[a * l + b] += va * bt[r * l + b];
    }
  }
  for (let a = 0; a < l; a++) for (let b = 0; b < a; b++) g[a * l + b] = g[b * l + a];
  const { values, vectors } = symmetricEigen(g, l);
  // V = Bᵀ U Σ⁻¹ (p × k)
  const rotation = new Float64Array(p * k);
  const variance = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    const s = Math.sqrt(Math.max(values[c], 0));
    variance[c] = (s * s) / Math.max(1, n - 1);
    const inv = s > 0 ? 1 / s : 0;
    for (let r = 0; r < p; r++) {
      let v = 0;
      for (let a = 0; a < l; a++) v += bt[r * l + a] * vectors[a * l + c];
      rotation[r * k + c] = v * inv;
    }
    // deterministic sign: the largest-magnitude loading is positive
    let best = 0;
    for (let r = 1; r < p; r++)
      if (Math.abs(rotation[r * k + c]) > Math.abs(rotation[best * k + c])) best = r;
    if (rotation[best * k + c] < 0) for (let r = 0; r < p; r++) rotation[r * k + c] = -rotation[r * k + c];
  }
  const project = (other: CountMatrix): Float32Array => {
    if (other.nGenes !== m.nGenes)
      throw new Error(`sparsePca: projected matrix has ${other.nGenes} genes, the fit had ${m.nGenes}`);
    return Float32Array.from(new ImplicitMatrix(other, col, center, scale).times(rotation, k));
  };
  return { pcs: Float32Array.from(op.times(rotation, k)), rotation, variance, nPcs: k, project };
}

/** Below this many stored values the products run on the calling thread only. */
export const PARALLEL_MIN_NNZ = 1_000_000;

/**
 * A = (X[:, selected] − center) · scale, X stored by cell (CSC with cells as columns). With
 * `threads` 2 (and a large enough matrix) each product is split at the cell where half of the
 * stored values lie; the upper part runs in a worker thread (sparse-products.ts) on shared arrays.
 * The split is the same with one thread, so results do not depend on the thread count.
 */
class ImplicitMatrix {
  private readonly split: number;
  private buffers: ProductBuffers | undefined;
  private worker: Worker | undefined;

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
      this.worker = worker;
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
    this.worker = undefined;
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
      ...this.localBuffers(),
      input: mat,
      output: new Float64Array(m.nCells * w),
      offset: new Float64Array(w),
    };
    this.timesOffset(mat, w, local.offset);
    timesRange(local, w, 0, m.nCells);
    return local.output;
  }

  /** Aᵀ · Y, Y row-major n × w; result p × w. */
  transposeTimes(y: Float64Array, w: number): Float64Array {
    const { m, center, scale } = this;
    const p = center.length;
    const out = new Float64Array(p * w);
    const colSum = new Float64Array(w);
    const b = this.buffers;
    let upper: Float64Array;
    let upperColSum: Float64Array;
    if (b && w <= b.maxWidth) {
      b.input.set(y.subarray(0, m.nCells * w));
      this.count(runSplit(b, 2, w, this.split, () => transposeTimesRange(b, w, 0, this.split, out, colSum)));
      upper = b.upper;
      upperColSum = b.upperColSum;
    } else {
      const local = { ...this.localBuffers(), input: y, maxWidth: w };
      upper = new Float64Array(p * w);
      upperColSum = new Float64Array(w);
      transposeTimesRange(local, w, 0, this.split, out, colSum);
      transposeTimesRange(local, w, this.split, m.nCells, upper, upperColSum);
    }
    for (let t = 0; t < p * w; t++) out[t] += upper[t];
    for (let c = 0; c < w; c++) colSum[c] += upperColSum[c];
    for (let j = 0; j < p; j++) {
      const f = center[j] * scale[j];
      if (f !== 0) for (let c = 0; c < w; c++) out[j * w + c] -= f * colSum[c];
    }
    return out;
  }

  private localBuffers(): ProductBuffers {
    const empty = new Float64Array(0);
    return {
      m: this.m,
      col: this.col,
      scale: this.scale,
      maxWidth: 1,
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

/** Orthonormal basis of the columns of a row-major rows × cols matrix (returned row-major). */
function orthoRowMajor(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c];
  orthonormalizeColumns(t, rows, cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) a[r * cols + c] = t[c * rows + r];
  return a;
}
