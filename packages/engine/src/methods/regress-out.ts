import { orthonormalizeColumns } from './linalg';
import { checkLength } from './validate';

/**
 * Residuals of a per-feature linear regression on the covariates plus an intercept, as scanpy's
 * `regress_out` (Gaussian GLM per gene, residuals returned). `values` is dense with each cell's
 * features contiguous (cells × features row-major = column-major features × cells).
 * Collinear covariates are handled (least-squares projection on the design's column space).
 */
export function regressOut(
  values: Float32Array,
  nCells: number,
  nFeatures: number,
  covariates: readonly ArrayLike<number>[],
): Float32Array {
  checkLength('regressOut', 'values', values.length, nCells * nFeatures);
  covariates.forEach((cov, i) => checkLength('regressOut', `covariates[${i}]`, cov.length, nCells));
  const p = covariates.length + 1;
  // orthonormal basis Q (stored column by column) of [1, covariates…]
  const q = new Float64Array(p * nCells);
  q.fill(1, 0, nCells);
  covariates.forEach((cov, j) => {
    for (let c = 0; c < nCells; c++) q[(j + 1) * nCells + c] = cov[c];
  });
  orthonormalizeColumns(q, nCells, p);
  const coef = new Float64Array(p * nFeatures); // Qᵀ Y
  for (let c = 0; c < nCells; c++) {
    const row = c * nFeatures;
    for (let j = 0; j < p; j++) {
      const w = q[j * nCells + c];
      if (w === 0) continue;
      const o = j * nFeatures;
      for (let f = 0; f < nFeatures; f++) coef[o + f] += w * values[row + f];
    }
  }
  const out = new Float32Array(values.length);
  const fitted = new Float64Array(nFeatures);
  for (let c = 0; c < nCells; c++) {
    fitted.fill(0);
    for (let j = 0; j < p; j++) {
      const w = q[j * nCells + c];
      if (w === 0) continue;
      const o = j * nFeatures;
      for (let f = 0; f < nFeatures; f++) fitted[f] += w * coef[o + f];
    }
    const row = c * nFeatures;
    for (let f = 0; f < nFeatures; f++) out[row + f] = values[row + f] - fitted[f];
  }
  return out;
}
