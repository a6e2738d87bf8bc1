import type { CountMatrix } from '@cellcloud/formats/matrix';

export interface SeuratV3Hvg {
  selected: Uint8Array;
  /** Mean count per gene. */
  means: Float64Array;
  /** Variance of the counts clipped at mean + sqrt(n)·sd_expected, over the expected variance (0 for constant genes). */
  variancesNorm: Float64Array;
}

/** loess span of the mean–variance trend (scanpy / Seurat vst default). */
const SPAN = 0.3;

/**
 * scanpy `highly_variable_genes(flavor='seurat_v3', n_top_genes=n)` (Seurat's "vst", the reference
 * flavour, docs/methods/pipeline.md#highly-variable-genes) on raw counts, one batch: per gene mean and variance (ddof 1); a local quadratic
 * loess (span 0.3, tricube weights) of log10(variance) on log10(mean) over non-constant genes
 * gives the expected sd; counts are clipped at mean + sqrt(nCells)·sd and their variance divided
 * by the expected variance; the n genes with the largest standardized variance are selected.
 * Difference from scanpy: loess is evaluated exactly at every gene (skmisc interpolates on a
 * kd-tree), so the trend differs in the last digits.
 */
export function seuratV3Hvg(counts: CountMatrix, nTop: number): SeuratV3Hvg {
  const { nGenes, nCells } = counts;
  const sum = new Float64Array(nGenes);
  const sumSq = new Float64Array(nGenes);
  for (let k = 0; k < counts.data.length; k++) {
    const v = counts.data[k];
    sum[counts.indices[k]] += v;
    sumSq[counts.indices[k]] += v * v;
  }
  const trend = seuratV3Trend(sum, sumSq, nCells);
  const cSum = new Float64Array(nGenes);
  const cSq = new Float64Array(nGenes);
  seuratV3ClippedSums(counts, trend.clip, cSum, cSq);
  return seuratV3Select(trend, cSum, cSq, nCells, nTop);
}

/** The mean–variance trend of seuratV3Hvg from per-gene sums and sums of squares of the counts. */
export interface SeuratV3Trend {
  means: Float64Array;
  /** Non-constant genes, by increasing mean. */
  genes: number[];
  expectedVar: Float64Array;
  /** Clip value per gene (Infinity for constant genes). */
  clip: Float64Array;
}

/** First half of seuratV3Hvg: moments, loess trend and clip values (the streamed path sums chunk by chunk). */
export function seuratV3Trend(sum: Float64Array, sumSq: Float64Array, nCells: number): SeuratV3Trend {
  const nGenes = sum.length;
  const means = sum.map((s) => s / nCells);
  const variances = sumSq.map((q, g) =>
    Math.max(0, (q - nCells * means[g] * means[g]) / Math.max(1, nCells - 1)),
  );
  const genes: number[] = [];
  for (let g = 0; g < nGenes; g++) if (variances[g] > 0) genes.push(g);
  genes.sort((a, b) => means[a] - means[b]);
  const x = Float64Array.from(genes, (g) => Math.log10(means[g]));
  const y = Float64Array.from(genes, (g) => Math.log10(variances[g]));
  const fitted = loessQuadratic(x, y, SPAN);
  const clip = new Float64Array(nGenes).fill(Infinity);
  const expectedVar = new Float64Array(nGenes);
  genes.forEach((g, i) => {
    expectedVar[g] = Math.pow(10, fitted[i]);
    clip[g] = means[g] + Math.sqrt(expectedVar[g]) * Math.sqrt(nCells);
  });
  return { means, genes, expectedVar, clip };
}

/** Adds the sums and sums of squares of the clipped counts of `m` per gene to cSum / cSq. */
export function seuratV3ClippedSums(
  m: CountMatrix,
  clip: Float64Array,
  cSum: Float64Array,
  cSq: Float64Array,
): void {
  for (let k = 0; k < m.data.length; k++) {
    const g = m.indices[k];
    const v = Math.min(m.data[k], clip[g]);
    cSum[g] += v;
    cSq[g] += v * v;
  }
}

/** Second half of seuratV3Hvg: standardized clipped variances and the top `nTop` genes. */
export function seuratV3Select(
  trend: SeuratV3Trend,
  cSum: Float64Array,
  cSq: Float64Array,
  nCells: number,
  nTop: number,
): SeuratV3Hvg {
  const { means, genes, expectedVar } = trend;
  const nGenes = means.length;
  const variancesNorm = new Float64Array(nGenes);
  for (const g of genes) {
    const m = means[g];
    variancesNorm[g] = (nCells * m * m + cSq[g] - 2 * cSum[g] * m) / ((nCells - 1) * expectedVar[g]);
  }
  const order = Array.from({ length: nGenes }, (_, g) => g).sort(
    (a, b) => variancesNorm[b] - variancesNorm[a] || a - b,
  );
  const selected = new Uint8Array(nGenes);
  for (let r = 0; r < Math.min(nTop, genes.length); r++) selected[order[r]] = 1;
  return { selected, means, variancesNorm };
}

/**
 * Local quadratic regression (loess, degree 2, tricube weights over the ⌊span·n⌋ nearest points)
 * of y on x, evaluated at every x. `x` must be sorted ascending.
 */
export function loessQuadratic(x: Float64Array, y: Float64Array, span: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const q = Math.max(3, Math.min(n, Math.floor(span * n)));
  let lo = 0;
  for (let i = 0; i < n; i++) {
    const x0 = x[i];
    while (lo + q < n && x[lo + q] - x0 < x0 - x[lo]) lo++;
    const h = Math.max(x0 - x[lo], x[lo + q - 1] - x0) * (q === n ? 1.0001 : 1);
    // Weighted moments of u = x − x0 (the window [lo, lo + q) plus ties at distance h get weight 0).
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0,
      t0 = 0,
      t1 = 0,
      t2 = 0;
    for (let j = lo; j < lo + q; j++) {
      const u = x[j] - x0;
      const r = h > 0 ? Math.abs(u) / h : 0;
      if (r >= 1) continue;
      const c = 1 - r * r * r;
      const w = c * c * c;
      const u2 = u * u;
      s0 += w;
      s1 += w * u;
      s2 += w * u2;
      s3 += w * u2 * u;
      s4 += w * u2 * u2;
      t0 += w * y[j];
      t1 += w * u * y[j];
      t2 += w * u2 * y[j];
    }
    // Solve [s0 s1 s2; s1 s2 s3; s2 s3 s4]·[a b c] = [t0 t1 t2] for the intercept a (Cramer).
    const det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2);
    const detA = t0 * (s2 * s4 - s3 * s3) - s1 * (t1 * s4 - s3 * t2) + s2 * (t1 * s3 - s2 * t2);
    out[i] = Math.abs(det) > 1e-12 * Math.max(1e-300, s0 * s2 * s4) ? detA / det : s0 > 0 ? t0 / s0 : y[i];
  }
  return out;
}
