import { describe, expect, it } from 'vitest';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { symmetricEigen } from '../src/methods/linalg';
import { Random } from '../src/methods/random';
import { choosePcCount } from '../src/stats/n-pcs';
import { scaledSparsePca } from '../src/steps/pca';

/** 80 cells × 12 genes of sparse counts with two correlated gene blocks; gene 11 is constant 0. */
function smallMatrix(): { m: CountMatrix; dense: Float64Array } {
  const nCells = 80;
  const nGenes = 12;
  const rng = new Random(7);
  const dense = new Float64Array(nCells * nGenes);
  for (let c = 0; c < nCells; c++) {
    const group = c % 3;
    for (let g = 0; g < nGenes - 1; g++) {
      const boost = (group === 0 && g < 4) || (group === 1 && g >= 4 && g < 7) ? 3 : 0;
      dense[c * nGenes + g] = Math.log1p(Math.floor(rng.uniform() * (3 + boost + (g % 3))));
    }
  }
  const indptr = new Float64Array(nCells + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let c = 0; c < nCells; c++) {
    for (let g = 0; g < nGenes; g++) {
      const v = dense[c * nGenes + g];
      if (v !== 0) {
        indices.push(g);
        data.push(v);
      }
    }
    indptr[c + 1] = indices.length;
  }
  return {
    m: { nGenes, nCells, indptr, indices: Uint32Array.from(indices), data: Float32Array.from(data) },
    dense,
  };
}

/** Exact eigenvalues (descending) of the covariance of the column-standardised dense matrix, and its trace. */
function exactSpectrum(
  dense: Float64Array,
  nCells: number,
  nGenes: number,
  maxValue = Infinity,
): { values: number[]; total: number } {
  const z = new Float64Array(dense.length);
  for (let g = 0; g < nGenes; g++) {
    let mean = 0;
    for (let c = 0; c < nCells; c++) mean += dense[c * nGenes + g] / nCells;
    let ss = 0;
    for (let c = 0; c < nCells; c++) ss += (dense[c * nGenes + g] - mean) ** 2;
    const sd = Math.sqrt(ss / (nCells - 1));
    for (let c = 0; c < nCells; c++)
      z[c * nGenes + g] = sd > 0 ? Math.min(maxValue, (dense[c * nGenes + g] - mean) / sd) : 0;
    // scanpy pca centres the clipped matrix again
    let zMean = 0;
    for (let c = 0; c < nCells; c++) zMean += z[c * nGenes + g] / nCells;
    for (let c = 0; c < nCells; c++) z[c * nGenes + g] -= zMean;
  }
  const cov = new Float64Array(nGenes * nGenes);
  for (let a = 0; a < nGenes; a++)
    for (let b = 0; b < nGenes; b++) {
      let s = 0;
      for (let c = 0; c < nCells; c++) s += z[c * nGenes + a] * z[c * nGenes + b];
      cov[a * nGenes + b] = s / (nCells - 1);
    }
  let total = 0;
  for (let g = 0; g < nGenes; g++) total += cov[g * nGenes + g];
  const values = Array.from(symmetricEigen(cov, nGenes).values).sort((x, y) => y - x);
  return { values, total };
}

describe('PCA variance ratios', () => {
  it('are each PC variance over the total variance of the scaled matrix (scanpy variance_ratio)', () => {
    const { m, dense } = smallMatrix();
    const exact = exactSpectrum(dense, m.nCells, m.nGenes);
    expect(exact.total).toBeCloseTo(11, 9); // 11 non-constant unit-variance genes
    const fit = scaledSparsePca(m, 42);
    expect(fit.nComputed).toBe(11);
    for (let j = 0; j < fit.nComputed; j++)
      expect(fit.varianceRatio[j]).toBeCloseTo(exact.values[j] / exact.total, 6);
    // all PCs of a full-rank PCA explain the whole variance; the leading ones alone do not
    expect(fit.varianceRatio.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
    expect(fit.varianceRatio[0] + fit.varianceRatio[1]).toBeLessThan(0.9);
  });

  it('clip the scaled values at max_value like scanpy scale(max_value) before the ratios', () => {
    const { m, dense } = smallMatrix();
    const exact = exactSpectrum(dense, m.nCells, m.nGenes, 1.5);
    expect(exact.total).toBeLessThan(10.9); // clipping removed variance
    const fit = scaledSparsePca(m, 42, 1.5);
    for (let j = 0; j < fit.nComputed; j++)
      expect(fit.varianceRatio[j]).toBeCloseTo(exact.values[j] / exact.total, 6);
    expect(fit.varianceRatio.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
  });

  it('choosePcCount follows METHODS get_n_pcs on total-variance ratios', () => {
    // pbmc3k leading ratios (%, defaults): cumulative never passes 90 within 50 PCs, so the last
    // drop > 0.1 point (PC4 → PC5) decides: 5 PCs.
    const pbmc = [2.25, 1.48, 1.13, 0.77, 0.45, 0.36, 0.31, 0.26, 0.24, 0.23, ...Array<number>(40).fill(0.2)];
    expect(choosePcCount(pbmc.map((p) => p / 100))).toBe(5);
    // cumulative passes 90% at PC 3 (own share 4% < 5%) before the drop rule's k = 4
    expect(choosePcCount([0.6, 0.27, 0.04, 0.03, 0.02, 0.02, 0.02])).toBe(3);
  });
});
