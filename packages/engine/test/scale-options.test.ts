import { describe, expect, it } from 'vitest';
import { analysisParams, childAnalysisParams } from '@cellcloud/contracts/analysis-params';
import { symmetricEigen } from '../src/methods/linalg';
import { subsetGenes } from '../src/sparse';
import { MAX_SCALED_VALUE, scaledSparsePca } from '../src/steps/pca';
import { syntheticDataset } from '../src/synthetic';
import { logNormalize } from './methods/fixtures';

/**
 * scaleLargeData (docs/methods/pipeline.md#scaling-and-pca) and a sub-cluster's onlyScaleHighlyVariableGenes choose between
 * scaling every gene (then PCA on the HVG columns, scanpy's default) and scaling the HVGs only.
 * Each gene is scaled (and clipped at 10) on its own, so both give the same PCs; the engine takes
 * the HVG-only path for either value (no all-gene scaled matrix). This test checks that claim
 * against an independent dense computation of the all-genes path.
 */
describe('scaling options (issue 14)', () => {
  it('scaling all genes then masking the HVGs gives the PCs of scaling the HVGs only', () => {
    const { dataset } = syntheticDataset({ nCells: 300, nGenes: 400, nClusters: 4, seed: 11 });
    const norm = logNormalize(dataset.counts);
    const n = norm.nCells;
    const G = norm.nGenes;
    // dense log data, every gene scaled (ddof 1) and clipped at 10 — scanpy sc.pp.scale(max_value=10)
    const dense = new Float64Array(n * G);
    for (let c = 0; c < n; c++)
      for (let t = norm.indptr[c]; t < norm.indptr[c + 1]; t++) dense[c * G + norm.indices[t]] = norm.data[t];
    const scaled = new Float64Array(n * G);
    for (let g = 0; g < G; g++) {
      let s = 0;
      for (let c = 0; c < n; c++) s += dense[c * G + g];
      const mean = s / n;
      let v = 0;
      for (let c = 0; c < n; c++) v += (dense[c * G + g] - mean) ** 2;
      const sd = Math.sqrt(v / (n - 1));
      for (let c = 0; c < n; c++)
        scaled[c * G + g] = sd > 0 ? Math.min((dense[c * G + g] - mean) / sd, MAX_SCALED_VALUE) : 0;
    }
    // the HVG mask: the 80 genes of largest variance of the log data
    const variances = Array.from({ length: G }, (_, g) => {
      let s = 0;
      let q = 0;
      for (let c = 0; c < n; c++) {
        s += dense[c * G + g];
        q += dense[c * G + g] ** 2;
      }
      return q / n - (s / n) ** 2;
    });
    const hvg = new Uint8Array(G);
    const order = variances.map((v, g) => [v, g] as const).sort((a, b) => b[0] - a[0]);
    for (let i = 0; i < 80; i++) hvg[order[i][1]] = 1;
    const genes = order
      .slice(0, 80)
      .map(([, g]) => g)
      .sort((a, b) => a - b);
    const p = genes.length;
    // PCA of the HVG columns of the all-genes scaled matrix (centred again, as sc.tl.pca): exact eigen
    const x = new Float64Array(n * p);
    genes.forEach((g, j) => {
      let s = 0;
      for (let c = 0; c < n; c++) s += scaled[c * G + g];
      for (let c = 0; c < n; c++) x[c * p + j] = scaled[c * G + g] - s / n;
    });
    const cov = new Float64Array(p * p);
    for (let c = 0; c < n; c++)
      for (let a = 0; a < p; a++)
        for (let b = 0; b < p; b++) cov[a * p + b] += (x[c * p + a] * x[c * p + b]) / (n - 1);
    const exact = symmetricEigen(cov, p).values;
    // the engine's path: HVG submatrix, scaled and clipped implicitly
    const ours = scaledSparsePca(subsetGenes(norm, hvg), 42, MAX_SCALED_VALUE);
    const total = exact.reduce((a, b) => a + Math.max(0, b), 0);
    for (let c = 0; c < 10; c++) expect(ours.varianceRatio[c]).toBeCloseTo(exact[c] / total, 6);
    // both parameters are accepted with either value (and change nothing else)
    expect(analysisParams.parse({ scaleLargeData: true }).scaleLargeData).toBe(true);
    expect(
      childAnalysisParams.parse({ onlyScaleHighlyVariableGenes: false }).onlyScaleHighlyVariableGenes,
    ).toBe(false);
  });
});
