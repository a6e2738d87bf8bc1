import { describe, expect, it } from 'vitest';
import { lastProducts, PARALLEL_MIN_NNZ, sparsePca } from '../../src/methods/sparse-pca';
import { syntheticDataset } from '../../src/synthetic';
import { logNormalize } from './fixtures';

describe('sparsePca on two threads (issue 14)', () => {
  it('gives exactly the one-thread result, the upper half of the products in a worker thread', () => {
    const { dataset } = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 5, seed: 3 });
    const logm = logNormalize(dataset.counts);
    expect(logm.indices.length).toBeGreaterThanOrEqual(PARALLEL_MIN_NNZ);
    const genes = Int32Array.from({ length: 1000 }, (_, j) => j);
    const opts = { seed: 5, powerIterations: 4 };
    const one = sparsePca(logm, genes, 20, { ...opts, threads: 1 });
    expect(lastProducts.inWorker).toBe(0);
    const two = sparsePca(logm, genes, 20, { ...opts, threads: 2 });
    console.log(
      `[sparse-pca] ${logm.indices.length} values: ${lastProducts.inWorker} of ${lastProducts.total} products split with the worker thread`,
    );
    expect(two.nPcs).toBe(20);
    expect(Array.from(two.variance)).toEqual(Array.from(one.variance));
    expect(Array.from(two.pcs)).toEqual(Array.from(one.pcs));
    // the leading PC carries the cluster structure: its variance dominates the tail
    expect(two.variance[0]).toBeGreaterThan(5 * two.variance[19]);
  });
});
