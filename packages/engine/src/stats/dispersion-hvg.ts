import type { CountMatrix } from '@cellcloud/formats/matrix';

export interface DispersionHvg {
  selected: Uint8Array;
  means: Float64Array; // log1p of the mean of expm1(X)
  dispersions: Float64Array; // log(var/mean), NaN for constant genes
  dispersionsNorm: Float64Array;
}

const N_BINS = 20;

/**
 * scanpy `highly_variable_genes(flavor='seurat', n_top_genes=n)` on log1p-normalized data:
 * dispersion of expm1(X) per gene, z-scored within 20 equal-width bins of log1p(mean); a bin
 * holding one gene gets normalized dispersion 1, as scanpy does. The n genes with the largest
 * normalized dispersion are selected.
 */
export function dispersionHvg(norm: CountMatrix, nTop: number): DispersionHvg {
  const { nGenes, nCells } = norm;
  const sum = new Float64Array(nGenes);
  const sumSq = new Float64Array(nGenes);
  for (let k = 0; k < norm.data.length; k++) {
    const v = Math.expm1(norm.data[k]);
    const g = norm.indices[k];
    sum[g] += v;
    sumSq[g] += v * v;
  }
  return dispersionHvgFromSums(sum, sumSq, nCells, nTop);
}

/**
 * The same selection from per-gene sums and sums of squares of the normalized (not log) values
 * over nCells cells: callers that still hold the normalized values (Scrublet's HVG step) skip the
 * log1p → expm1 round trip over every stored value.
 */
export function dispersionHvgFromSums(
  sum: Float64Array,
  sumSq: Float64Array,
  nCells: number,
  nTop: number,
): DispersionHvg {
  const nGenes = sum.length;
  const means = new Float64Array(nGenes);
  const dispersions = new Float64Array(nGenes);
  for (let g = 0; g < nGenes; g++) {
    let mean = sum[g] / nCells;
    const variance = nCells > 1 ? (sumSq[g] - nCells * mean * mean) / (nCells - 1) : 0;
    if (mean === 0) mean = 1e-12;
    const disp = variance / mean;
    dispersions[g] = disp > 0 ? Math.log(disp) : NaN;
    means[g] = Math.log1p(mean);
  }
  const bin = binEqualWidth(means, N_BINS);
  const bMean = new Float64Array(N_BINS);
  const bSq = new Float64Array(N_BINS);
  const bN = new Float64Array(N_BINS);
  for (let g = 0; g < nGenes; g++) {
    if (Number.isNaN(dispersions[g])) continue;
    bMean[bin[g]] += dispersions[g];
    bSq[bin[g]] += dispersions[g] * dispersions[g];
    bN[bin[g]]++;
  }
  const mu = new Float64Array(N_BINS);
  const sd = new Float64Array(N_BINS);
  for (let b = 0; b < N_BINS; b++) {
    mu[b] = bN[b] > 0 ? bMean[b] / bN[b] : NaN;
    sd[b] = bN[b] > 1 ? Math.sqrt(Math.max(0, (bSq[b] - bN[b] * mu[b] * mu[b]) / (bN[b] - 1))) : NaN;
    if (bN[b] === 1) {
      sd[b] = mu[b];
      mu[b] = 0;
    }
  }
  const dispersionsNorm = Float64Array.from(dispersions, (d, g) => (d - mu[bin[g]]) / sd[bin[g]]);
  const order = Array.from({ length: nGenes }, (_, g) => g)
    .filter((g) => Number.isFinite(dispersionsNorm[g]))
    .sort((a, b) => dispersionsNorm[b] - dispersionsNorm[a] || a - b);
  const selected = new Uint8Array(nGenes);
  for (const g of order.slice(0, nTop)) selected[g] = 1;
  return { selected, means, dispersions, dispersionsNorm };
}

/** pandas.cut(x, bins) bin index (equal width over [min, max]). */
function binEqualWidth(x: Float64Array, nBins: number): Uint8Array {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of x) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const width = (hi - lo) / nBins || 1;
  return Uint8Array.from(x, (v) => Math.min(nBins - 1, Math.max(0, Math.ceil((v - lo) / width) - 1)));
}
