import type { CountMatrix } from '@cellcloud/formats/matrix';
import { orthonormalizeColumns, symmetricEigen } from './linalg';
import { Random } from './random';

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
}

/** Power iterations done by the last sparsePca call (for logs and benchmarks). */
export let lastPowerIterations = 0;

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
  const op = new ImplicitMatrix(m, col, center, scale);
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
  return { pcs: project(m), rotation, variance, nPcs: k, project };
}

/** A = (X[:, selected] − center) · scale, X stored by cell (CSC with cells as columns). */
class ImplicitMatrix {
  constructor(
    readonly m: CountMatrix,
    readonly col: Int32Array,
    readonly center: Float64Array,
    readonly scale: Float64Array,
  ) {}

  /** A · M, M row-major p × w; result n × w. */
  times(mat: Float64Array, w: number): Float64Array {
    const { m, col, center, scale } = this;
    const offset = new Float64Array(w);
    for (let j = 0; j < center.length; j++) {
      const f = center[j] * scale[j];
      if (f !== 0) for (let c = 0; c < w; c++) offset[c] += f * mat[j * w + c];
    }
    const out = new Float64Array(m.nCells * w);
    for (let cell = 0; cell < m.nCells; cell++) {
      const o = cell * w;
      for (let c = 0; c < w; c++) out[o + c] = -offset[c];
      for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
        const j = col[m.indices[t]];
        if (j < 0) continue;
        addScaledRow(out, o, mat, j * w, m.data[t] * scale[j], w);
      }
    }
    return out;
  }

  /** Aᵀ · Y, Y row-major n × w; result p × w. */
  transposeTimes(y: Float64Array, w: number): Float64Array {
    const { m, col, center, scale } = this;
    const p = center.length;
    const out = new Float64Array(p * w);
    const colSum = new Float64Array(w);
    for (let cell = 0; cell < m.nCells; cell++) {
      const o = cell * w;
      for (let c = 0; c < w; c++) colSum[c] += y[o + c];
      for (let t = m.indptr[cell]; t < m.indptr[cell + 1]; t++) {
        const j = col[m.indices[t]];
        if (j < 0) continue;
        addScaledRow(out, j * w, y, o, m.data[t] * scale[j], w);
      }
    }
    for (let j = 0; j < p; j++) {
      const f = center[j] * scale[j];
      if (f !== 0) for (let c = 0; c < w; c++) out[j * w + c] -= f * colSum[c];
    }
    return out;
  }
}

/** dst[d0 … d0+w) += v · src[s0 … s0+w): the inner loop of both sparse × dense products, unrolled by 4. */
function addScaledRow(
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

/** Orthonormal basis of the columns of a row-major rows × cols matrix (returned row-major). */
function orthoRowMajor(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c];
  orthonormalizeColumns(t, rows, cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) a[r * cols + c] = t[c * rows + r];
  return a;
}
