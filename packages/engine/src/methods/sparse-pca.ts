import { engineThreads } from '../threads';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { blockKrylovEigen } from './block-krylov';
import { ImplicitMatrix, lastProducts, type ProductMatrix } from './implicit-matrix';
import { orthonormalizeColumns, symmetricEigen } from './linalg';
import { Random } from './random';

export { lastProducts, PARALLEL_MIN_NNZ, toShared } from './implicit-matrix';

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
  /**
   * 'randomized' (default): randomized SVD with `powerIterations` subspace iterations (continued
   * up to `maxPowerIterations` until the Ritz values settle). 'block-krylov': block Lanczos over
   * the p side (block-krylov.ts), stopped when the leading `convergedPcs` Ritz pairs' residuals
   * are below `tolerance` · θ₁ (at most `maxPowerIterations` blocks); the converged PCs with a
   * few fused products AᵀA·Q instead of tens of power iterations.
   */
  method?: 'randomized' | 'block-krylov';
}

/** Power iterations done by the last sparsePca call (for logs and benchmarks). */
export let lastPowerIterations = 0;
/** Block Krylov: largest relative residual of the watched Ritz pairs at the stop (for benchmarks). */
export let lastKrylovResidual = 0;

export function sparsePca(
  m: ProductMatrix,
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
  const values = m.countValues?.counts ?? m.data;
  const shared = values.buffer instanceof SharedArrayBuffer && m.indices.buffer instanceof SharedArrayBuffer;
  const krylov = opts.method === 'block-krylov';
  // block Krylov multiplies genes-side operands only: no cells × l shared input or output (issue 33)
  const threads = opts.threads ?? (shared ? engineThreads() : 1);
  const op = new ImplicitMatrix(m, col, center, scale, l, threads, !krylov);
  lastProducts.inWorker = 0;
  lastProducts.total = 0;
  try {
    return krylov ? fitKrylov(op, n, k, l, opts) : fitPca(op, p, n, k, l, opts);
  } finally {
    op.close();
  }
}

function fitKrylov(
  op: ImplicitMatrix,
  n: number,
  k: number,
  l: number,
  opts: SparsePcaOptions,
): SparsePcaFit {
  const p = op.center.length;
  const fit = blockKrylovEigen(op, p, k, {
    seed: opts.seed ?? 0,
    blockSize: l,
    maxBlocks: opts.maxPowerIterations ?? 8,
    convergedPcs: opts.convergedPcs ?? 20,
    tolerance: opts.tolerance ?? 1e-7,
  });
  lastPowerIterations = fit.blocks;
  lastKrylovResidual = fit.residual;
  const m = fit.values.length;
  const variance = fit.values.map((v) => Math.max(v, 0) / Math.max(1, n - 1));
  const rotation = fit.vectors;
  for (let c = 0; c < m; c++) positiveLargest(rotation, p, m, c);
  return finishFit(op, rotation, variance, m);
}

/** Deterministic sign: the largest-magnitude loading of column c (of a row-major p × k) is positive. */
function positiveLargest(rotation: Float64Array, p: number, k: number, c: number): void {
  let best = 0;
  for (let r = 1; r < p; r++) if (Math.abs(rotation[r * k + c]) > Math.abs(rotation[best * k + c])) best = r;
  if (rotation[best * k + c] < 0) for (let r = 0; r < p; r++) rotation[r * k + c] = -rotation[r * k + c];
}

function finishFit(
  op: ImplicitMatrix,
  rotation: Float64Array,
  variance: Float64Array,
  k: number,
): SparsePcaFit {
  const { m, col, center, scale } = op;
  const project = (other: CountMatrix): Float32Array => {
    if (other.nGenes !== m.nGenes)
      throw new Error(`sparsePca: projected matrix has ${other.nGenes} genes, the fit had ${m.nGenes}`);
    return new ImplicitMatrix(other, col, center, scale).scores(rotation, k);
  };
  return { pcs: op.scores(rotation, k), rotation, variance, nPcs: k, project };
}

function fitPca(
  op: ImplicitMatrix,
  p: number,
  n: number,
  k: number,
  l: number,
  opts: SparsePcaOptions,
): SparsePcaFit {
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
    positiveLargest(rotation, p, k, c);
  }
  return finishFit(op, rotation, variance, k);
}

/** Orthonormal basis of the columns of a row-major rows × cols matrix (returned row-major). */
function orthoRowMajor(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c];
  orthonormalizeColumns(t, rows, cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) a[r * cols + c] = t[c * rows + r];
  return a;
}
