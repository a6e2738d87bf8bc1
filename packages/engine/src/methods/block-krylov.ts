import type { ImplicitMatrix } from './implicit-matrix';
import { orthonormalizeColumns } from './linalg';
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
    for (let j = 0; j < width; j++) {
      const wj = image.subarray(j * p, (j + 1) * p);
      for (let i = 0; i < dim; i++) {
        let v = dot(basis, i * p, wj, p);
        // within the block, column i (< j) already set this entry as Q_jᵀ W_i: average the two
        if (i >= start && i < start + j) v = (h[i * maxDim + start + j] + v) / 2;
        h[i * maxDim + start + j] = h[(start + j) * maxDim + i] = v;
      }
    }
    const sub = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++) sub.set(h.subarray(i * maxDim, i * maxDim + dim), i * dim);
    const eig = symmetricEigenQl(sub, dim);
    // R = (I − QQᵀ) W: the next block before normalisation; residual of (θ, Qu) is ‖R u_block‖
    project(image, basis, p, dim, width);
    project(image, basis, p, dim, width);
    let residual = 0;
    const r = new Float64Array(p);
    for (let c = 0; c < watch; c++) {
      r.fill(0);
      for (let j = 0; j < width; j++) {
        const u = eig.vectors[(start + j) * dim + c];
        if (u !== 0) for (let t = 0; t < p; t++) r[t] += u * image[j * p + t];
      }
      residual = Math.max(residual, Math.sqrt(dot(r, 0, r, p)) / Math.max(1e-300, eig.values[0]));
    }
    const next = Math.min(width, maxDim - dim);
    if (residual < opts.tolerance || next <= 0) {
      const m = Math.min(k, dim);
      const vectors = new Float64Array(p * m);
      for (let i = 0; i < dim; i++) {
        for (let c = 0; c < m; c++) {
          const u = eig.vectors[i * dim + c];
          if (u !== 0) for (let t = 0; t < p; t++) vectors[t * m + c] += u * basis[i * p + t];
        }
      }
      return { vectors, values: eig.values.slice(0, m), blocks, residual };
    }
    width = next;
    block = image.slice(0, p * width);
    orthonormalizeColumns(block, p, width);
    project(block, basis, p, dim, width);
    orthonormalizeColumns(block, p, width);
  }
}

function dot(a: Float64Array, a0: number, b: Float64Array, len: number): number {
  let s = 0;
  for (let t = 0; t < len; t++) s += a[a0 + t] * b[t];
  return s;
}

/** cols columns of x (column-major p × ·) minus their projection on the first `dim` basis columns. */
function project(x: Float64Array, basis: Float64Array, p: number, dim: number, cols: number): void {
  for (let j = 0; j < cols; j++) {
    const xj = x.subarray(j * p, (j + 1) * p);
    for (let i = 0; i < dim; i++) {
      const d = dot(basis, i * p, xj, p);
      if (d === 0) continue;
      const o = i * p;
      for (let t = 0; t < p; t++) xj[t] -= d * basis[o + t];
    }
  }
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
