import type { ImplicitMatrix } from './implicit-matrix';
import { columnDots, orthonormalizeColumns } from './linalg';
import { symmetricEigenQl } from './tridiagonal-eigen';
import { Random } from './random';

/**
 * Leading eigenpairs of AᵀA (p × p, A the implicit n × p matrix) by randomized block Krylov
 * (Musco & Musco 2015) as a block Lanczos with full re-orthogonalisation, on the p side only:
 * the basis grows by one block Q_{i+1} = orth((I − QQᵀ) AᵀA Q_i) per fused product AᵀA·Q_i
 * (one pass over the matrix, implicit-matrix.ts gram), and H = Qᵀ AᵀA Q is known exactly from
 * the products already made (no extra pass for the Rayleigh–Ritz step). Subspace (power)
 * iteration keeps only the newest block; keeping them all reaches the same converged leading
 * eigenvectors in a few blocks instead of tens of iterations.
 * Stops when the residual ‖AᵀA v − θ v‖ of each of the leading `convergedPcs` Ritz pairs is
 * below `tolerance` · θ₁, or after `maxBlocks` blocks, or when the basis spans all p columns.
 */
export interface BlockKrylovOptions {
  seed: number;
  /** Columns per block (k + oversampling). */
  blockSize: number;
  maxBlocks: number;
  convergedPcs: number;
  tolerance: number;
}

export interface BlockKrylovFit {
  /** row-major p × k eigenvectors of AᵀA (the PCA loadings) */
  vectors: Float64Array;
  /** the k leading eigenvalues of AᵀA (squared singular values of A), decreasing */
  values: Float64Array;
  /** blocks (fused products) used */
  blocks: number;
  /** largest relative residual of the watched Ritz pairs when it stopped */
  residual: number;
}

export function blockKrylovEigen(
  op: ImplicitMatrix,
  p: number,
  k: number,
  opts: BlockKrylovOptions,
): BlockKrylovFit {
  const rng = new Random(opts.seed);
  const maxDim = Math.min(p, opts.blockSize * opts.maxBlocks);
  const basis = new Float64Array(p * maxDim); // column-major: column i at [i·p, (i+1)·p)
  const h = new Float64Array(maxDim * maxDim);
  let width = Math.min(opts.blockSize, p);
  let block = new Float64Array(p * width);
  for (let t = 0; t < block.length; t++) block[t] = rng.normal();
  orthonormalizeColumns(block, p, width);
  let dim = 0;
  let blocks = 0;
  const watch = Math.min(k, opts.convergedPcs);
  for (;;) {
    const start = dim;
    basis.set(block, start * p);
    dim += width;
    // W = AᵀA Q_i (row-major p × width), the only pass over the matrix of this block
    const w = op.gram(toRowMajor(block, p, width), width);
    blocks++;
    const image = toColumnMajor(w, p, width);
    // H[:, block] = Qᵀ W (symmetric; the block's own square averaged)
    const qw = basisDots(basis, image, p, dim, width);
    for (let j = 0; j < width; j++) {
      for (let i = 0; i < dim; i++) {
        let v = qw[j * dim + i];
        // within the block, column i (< j) already set this entry as Q_jᵀ W_i: average the two
        if (i >= start && i < start + j) v = (h[i * maxDim + start + j] + v) / 2;
        h[i * maxDim + start + j] = h[(start + j) * maxDim + i] = v;
      }
    }
    const sub = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++) sub.set(h.subarray(i * maxDim, i * maxDim + dim), i * dim);
    // R = (I − QQᵀ) W: the next block before normalisation; residual of (θ, Qu) is ‖R u_block‖
    project(image, basis, p, dim, width);
    project(image, basis, p, dim, width);
    const next = Math.min(width, maxDim - dim);
    // not the last block, and the leading Ritz pairs (from a few Lanczos steps on H) are surely
    // not converged yet: the full eigen-decomposition of H is skipped for this block
    if (next > 0 && surelyNotConverged(sub, dim, start, width, watch, image, p, opts.tolerance)) {
      width = next;
      block = image.slice(0, p * width);
      orthonormalizeColumns(block, p, width);
      project(block, basis, p, dim, width);
      orthonormalizeColumns(block, p, width);
      continue;
    }
    const eig = symmetricEigenQl(sub, dim);
    let residual = 0;
    for (let c = 0; c < watch; c++) {
      const u = eig.vectors.subarray(start * dim + c);
      residual = Math.max(residual, blockResidual(image, p, width, u, dim) / Math.max(1e-300, eig.values[0]));
    }
    if (residual < opts.tolerance || next <= 0) {
      const m = Math.min(k, dim);
      // Ritz vectors Q·u_c, column by column (each sum over i in the same order), then row-major
      const ritz = new Float64Array(p * m);
      for (let i = 0; i < dim; i++) {
        for (let c = 0; c < m; c++) {
          const u = eig.vectors[i * dim + c];
          if (u !== 0) for (let t = 0; t < p; t++) ritz[c * p + t] += u * basis[i * p + t];
        }
      }
      return { vectors: toRowMajor(ritz, p, m), values: eig.values.slice(0, m), blocks, residual };
    }
    width = next;
    block = image.slice(0, p * width);
    orthonormalizeColumns(block, p, width);
    project(block, basis, p, dim, width);
    orthonormalizeColumns(block, p, width);
  }
}

/** ‖R u‖: R the p × width residual block (column-major), u[j·stride] its coefficients. */
function blockResidual(
  image: Float64Array,
  p: number,
  width: number,
  u: Float64Array,
  stride: number,
): number {
  const r = new Float64Array(p);
  for (let j = 0; j < width; j++) {
    const uj = u[j * stride];
    if (uj !== 0) for (let t = 0; t < p; t++) r[t] += uj * image[j * p + t];
  }
  return Math.sqrt(dot(r, 0, r, p));
}

/** Below this basis size the full eigen-decomposition of H is cheap: always made. */
const FULL_EIGEN_BELOW = 200;
/** Lanczos steps on H at most for the stopping test (more: the full eigen-decomposition). */
const LANCZOS_STEPS = 120;

/**
 * True only when the stopping test of this block would surely fail: the leading `watch` + 1
 * eigenpairs of H (dim × dim) from Lanczos with full re-orthogonalisation (a few matrix–vector
 * products with H instead of its O(dim³) eigen-decomposition), each Ritz vector's error bounded by
 * its residual over its gap (Davis–Kahan), and some pair's residual ‖R u‖ above twice the
 * tolerance even after that error. Otherwise (converged, close, or the Lanczos pairs not accurate
 * enough) false: the block takes the exact test on the full decomposition, so the blocks made, and
 * the PCs, are those of the full test at every block.
 */
function surelyNotConverged(
  h: Float64Array,
  dim: number,
  start: number,
  width: number,
  watch: number,
  image: Float64Array,
  p: number,
  tolerance: number,
): boolean {
  const want = watch + 1;
  if (dim < FULL_EIGEN_BELOW || want >= dim) return false;
  const maxSteps = Math.min(LANCZOS_STEPS, dim - 1);
  const v = new Float64Array(dim * (maxSteps + 1)); // Lanczos vectors, one after the other
  const alpha = new Float64Array(maxSteps);
  const beta = new Float64Array(maxSteps);
  const rng = new Random(1);
  for (let i = 0; i < dim; i++) v[i] = rng.normal();
  scaleTo1(v, 0, dim);
  const w = new Float64Array(dim);
  for (let m = 1; m <= maxSteps; m++) {
    const j = m - 1;
    symmetricTimes(h, dim, v, j * dim, w);
    alpha[j] = dot(v, j * dim, w, dim);
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i <= j; i++) {
        const d = dot(v, i * dim, w, dim);
        for (let t = 0; t < dim; t++) w[t] -= d * v[i * dim + t];
      }
    const norm = Math.sqrt(dot(w, 0, w, dim));
    beta[j] = norm;
    if (m < want || (m % 10 !== 0 && m < maxSteps && norm > 0)) {
      if (norm === 0) return false;
      v.set(w, m * dim);
      scaleTo1(v, m * dim, dim);
      continue;
    }
    // Ritz pairs of the m steps: T (tridiagonal alpha, beta) = Y Θ Yᵀ
    const t = new Float64Array(m * m);
    for (let i = 0; i < m; i++) {
      t[i * m + i] = alpha[i];
      if (i + 1 < m) t[i * m + i + 1] = t[(i + 1) * m + i] = beta[i];
    }
    const ritz = symmetricEigenQl(t, m);
    const theta1 = ritz.values[0];
    let settled = true;
    for (let c = 0; c < want && settled; c++)
      settled = Math.abs(norm * ritz.vectors[(m - 1) * m + c]) <= 1e-12 * theta1;
    if (!settled && m < maxSteps && norm > 0) {
      v.set(w, m * dim);
      scaleTo1(v, m * dim, dim);
      continue;
    }
    if (!settled) return false;
    // explicit residuals ‖H u − θ u‖ of the Ritz vectors u = V y, and the error they bound
    const u = new Float64Array(dim);
    const hu = new Float64Array(dim);
    const rho = new Float64Array(want);
    const vectors: Float64Array[] = [];
    for (let c = 0; c < want; c++) {
      u.fill(0);
      for (let i = 0; i < m; i++) {
        const y = ritz.vectors[i * m + c];
        for (let k = 0; k < dim; k++) u[k] += y * v[i * dim + k];
      }
      symmetricTimes(h, dim, u, 0, hu);
      let s = 0;
      for (let k = 0; k < dim; k++) s += (hu[k] - ritz.values[c] * u[k]) ** 2;
      rho[c] = Math.sqrt(s);
      vectors.push(u.slice());
    }
    const thetaHigh = theta1 + rho[0];
    let rNorm = 0;
    for (let k = 0; k < p * width; k++) rNorm += image[k] * image[k];
    rNorm = Math.sqrt(rNorm);
    for (let c = 0; c < watch; c++) {
      const gap = Math.min(
        c > 0 ? ritz.values[c - 1] - ritz.values[c] : Infinity,
        ritz.values[c] - ritz.values[c + 1],
      );
      const slack = gap - 2 * Math.max(rho[c], c > 0 ? rho[c - 1] : 0, rho[c + 1]);
      if (!(slack > 0)) continue;
      const error = (2 * rNorm * rho[c]) / slack;
      const r = blockResidual(image, p, width, vectors[c].subarray(start), 1);
      if (r - error > 2 * tolerance * thetaHigh) return true;
    }
    return false;
  }
  return false;
}

/** out = H · v[v0 … v0 + n) for a symmetric row-major n × n H. */
function symmetricTimes(h: Float64Array, n: number, v: Float64Array, v0: number, out: Float64Array): void {
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let c = 0; c < n; c++) s += h[r * n + c] * v[v0 + c];
    out[r] = s;
  }
}

function scaleTo1(v: Float64Array, v0: number, n: number): void {
  let s = 0;
  for (let t = 0; t < n; t++) s += v[v0 + t] * v[v0 + t];
  const inv = 1 / Math.sqrt(s);
  for (let t = 0; t < n; t++) v[v0 + t] *= inv;
}

function dot(a: Float64Array, a0: number, b: Float64Array, len: number): number {
  let s = 0;
  for (let t = 0; t < len; t++) s += a[a0 + t] * b[t];
  return s;
}

/** Qᵀ X: out[j·dim + i] = basis column i · column j of x (column-major p × cols; columnDots). */
function basisDots(basis: Float64Array, x: Float64Array, p: number, dim: number, cols: number): Float64Array {
  const out = new Float64Array(dim * cols);
  const d = new Float64Array(cols);
  for (let i = 0; i < dim; i++) {
    columnDots(basis, i * p, x, 0, cols, p, d);
    for (let j = 0; j < cols; j++) out[j * dim + i] = d[j];
  }
  return out;
}

/**
 * cols columns of x (column-major p × ·) minus their projection on the first `dim` basis columns:
 * modified Gram–Schmidt, each column against basis columns 0, 1, … in turn. Basis-outer loops
 * (columnDots: each basis column read once for all of x) do to each column the same
 * operations in the same order as column by column.
 */
function project(x: Float64Array, basis: Float64Array, p: number, dim: number, cols: number): void {
  const d = new Float64Array(cols);
  for (let i = 0; i < dim; i++) columnDots(basis, i * p, x, 0, cols, p, d, 'nonzero');
}

function toRowMajor(colMajor: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) out[r * cols + c] = colMajor[c * rows + r];
  return out;
}

function toColumnMajor(rowMajor: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = rowMajor[r * cols + c];
  return out;
}
