import type { CountMatrix } from '@cellcloud/formats/matrix';
import { checkRange } from './validate';

export interface PearsonHvgResult {
  /** 1 for the nTop genes with the largest residual variance */
  selected: Uint8Array;
  /** variance (ddof = 0) of the clipped analytic Pearson residuals per gene; 0 for all-zero genes */
  variances: Float64Array;
  /** 0-based rank by residual variance (−1 for genes with no counts) */
  ranks: Int32Array;
}

/**
 * Highly variable genes by analytic Pearson residuals (Lause et al. 2021), as scanpy's
 * `experimental.pp.highly_variable_genes(flavor="pearson_residuals")` for one batch:
 * μ_cg = n_c·n_g/N, r_cg = (x_cg − μ_cg) / sqrt(μ_cg + μ_cg²/θ), clipped to ±clip
 * (default sqrt(nCells)), then the nTop genes with the largest residual variance.
 * Works on the sparse raw counts; the residuals of the zeros are accumulated per gene without
 * building the dense matrix (O(nGenes·distinct cell totals + nnz) arithmetic, O(nGenes + nCells) memory).
 */
export function pearsonResidualHvg(
  counts: CountMatrix,
  nTop: number,
  theta = 100,
  clip?: number,
): PearsonHvgResult {
  const M = 'pearsonResidualHvg';
  const { nGenes, nCells, indptr, indices, data } = counts;
  checkRange(M, 'nTop', nTop, 1, Math.max(1, nGenes), true);
  checkRange(M, 'theta', theta, 1e-9, Infinity);
  const clipValue = clip ?? Math.sqrt(nCells);
  checkRange(M, 'clip', clipValue, 0, Infinity);

  const cellSum = new Float64Array(nCells);
  const geneSum = new Float64Array(nGenes);
  for (let c = 0; c < nCells; c++) {
    for (let t = indptr[c]; t < indptr[c + 1]; t++) {
      cellSum[c] += data[t];
      geneSum[indices[t]] += data[t];
    }
  }
  let total = 0;
  for (let g = 0; g < nGenes; g++) total += geneSum[g];
  if (total <= 0)
    throw new Error(
      `${M}: the matrix has no counts; check that raw counts (not an empty selection) were passed`,
    );

  const sum = new Float64Array(nGenes);
  const sumSq = new Float64Array(nGenes);
  // residual of a zero count for every (gene, cell); cells with the same total share it, so the
  // loop runs over the distinct cell totals (weighted by how many cells have each)
  const totals = new Map<number, number>();
  for (let c = 0; c < nCells; c++) totals.set(cellSum[c], (totals.get(cellSum[c]) ?? 0) + 1);
  const uniqueTotals = Float64Array.from(totals.keys());
  const weights = Float64Array.from(totals.values());
  for (let g = 0; g < nGenes; g++) {
    if (geneSum[g] === 0) continue;
    const pg = geneSum[g] / total;
    let s = 0;
    let s2 = 0;
    for (let u = 0; u < uniqueTotals.length; u++) {
      const mu = uniqueTotals[u] * pg;
      const r0 = mu > 0 ? Math.max(-clipValue, -mu / Math.sqrt(mu + (mu * mu) / theta)) : 0;
      s += weights[u] * r0;
      s2 += weights[u] * r0 * r0;
    }
    sum[g] = s;
    sumSq[g] = s2;
  }
  // replace the zero residual by the actual one at every non-zero
  for (let c = 0; c < nCells; c++) {
    for (let t = indptr[c]; t < indptr[c + 1]; t++) {
      const g = indices[t];
      const mu = (cellSum[c] * geneSum[g]) / total;
      const sd = Math.sqrt(mu + (mu * mu) / theta);
      const r0 = Math.max(-clipValue, -mu / sd);
      const r = Math.min(clipValue, Math.max(-clipValue, (data[t] - mu) / sd));
      sum[g] += r - r0;
      sumSq[g] += r * r - r0 * r0;
    }
  }
  const variances = new Float64Array(nGenes);
  for (let g = 0; g < nGenes; g++) {
    if (geneSum[g] === 0) continue;
    const mean = sum[g] / nCells;
    variances[g] = Math.max(0, sumSq[g] / nCells - mean * mean);
  }
  const order = Array.from({ length: nGenes }, (_, g) => g)
    .filter((g) => geneSum[g] > 0)
    .sort((a, b) => variances[b] - variances[a] || a - b);
  const ranks = new Int32Array(nGenes).fill(-1);
  const selected = new Uint8Array(nGenes);
  order.forEach((g, r) => {
    ranks[g] = r;
    if (r < nTop) selected[g] = 1;
  });
  return { selected, variances, ranks };
}
