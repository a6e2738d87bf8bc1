import { describe, expect, it } from 'vitest';
import { symmetricEigen } from '../../src/methods/linalg';
import {
  lastPowerIterations,
  lastProducts,
  sparsePca,
  type SparsePcaFit,
} from '../../src/methods/sparse-pca';
import { symmetricEigenQl } from '../../src/methods/tridiagonal-eigen';
import { syntheticDataset } from '../../src/synthetic';
import { logNormalize } from './fixtures';

/** |cosine| between column c of two row-major p × k loadings. */
function loadingCos(a: SparsePcaFit, b: SparsePcaFit, c: number): number {
  const p = a.rotation.length / a.nPcs;
  let s = 0;
  for (let r = 0; r < p; r++) s += a.rotation[r * a.nPcs + c] * b.rotation[r * b.nPcs + c];
  return Math.abs(s);
}

describe('block Krylov PCA (issue 14)', () => {
  const { dataset } = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 5, seed: 3 });
  const logm = logNormalize(dataset.counts);
  const genes = Int32Array.from({ length: 600 }, (_, j) => j);
  const krylov = {
    method: 'block-krylov' as const,
    maxPowerIterations: 10,
    convergedPcs: 5,
    tolerance: 1e-6,
  };

  it('reaches the converged power-iteration PCs with far fewer products, at any seed, on either thread count', () => {
    const power = sparsePca(logm, genes, 20, { seed: 5, powerIterations: 60 });
    const powerProducts = lastProducts.total;
    const one = sparsePca(logm, genes, 20, { ...krylov, seed: 5, threads: 1 });
    const blocks = lastPowerIterations;
    const krylovProducts = lastProducts.total;
    const two = sparsePca(logm, genes, 20, { ...krylov, seed: 5, threads: 2 });
    const other = sparsePca(logm, genes, 20, { ...krylov, seed: 77, threads: 1 });
    console.log(
      `[block-krylov] ${blocks} blocks, ${krylovProducts} products vs ${powerProducts} (60 power iterations)`,
    );
    expect(krylovProducts).toBeLessThan(powerProducts / 4);
    expect(Array.from(two.pcs)).toEqual(Array.from(one.pcs));
    for (let c = 0; c < 5; c++) {
      expect(loadingCos(one, power, c)).toBeGreaterThan(1 - 1e-6);
      expect(loadingCos(one, other, c)).toBeGreaterThan(1 - 1e-6);
      expect(Math.abs(one.variance[c] / power.variance[c] - 1)).toBeLessThan(1e-7);
    }
  });

  it('spans the whole space when the genes are few: exact PCs', () => {
    const few = Int32Array.from({ length: 40 }, (_, j) => j);
    const exact = sparsePca(logm, few, 10, { seed: 1, powerIterations: 80 });
    const fit = sparsePca(logm, few, 10, { ...krylov, seed: 1 });
    expect(lastPowerIterations).toBe(2); // blocks of 10 + 10 columns span the 40 genes
    for (let c = 0; c < 10; c++) expect(Math.abs(fit.variance[c] / exact.variance[c] - 1)).toBeLessThan(1e-9);
  });
});

describe('symmetricEigenQl', () => {
  it('matches the Jacobi eigenvalues and gives A v = λ v', () => {
    for (const n of [1, 3, 17, 80]) {
      const a = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j <= i; j++)
          a[i * n + j] = a[j * n + i] = Math.sin(i * 7 + j * 3) + (i === j ? i / 10 : 0);
      const jacobi = symmetricEigen(a, n);
      const ql = symmetricEigenQl(a, n);
      for (let c = 0; c < n; c++) {
        expect(ql.values[c]).toBeCloseTo(jacobi.values[c], 9);
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += a[i * n + j] * ql.vectors[j * n + c];
          expect(Math.abs(s - ql.values[c] * ql.vectors[i * n + c])).toBeLessThan(1e-10);
        }
      }
    }
  });
});
