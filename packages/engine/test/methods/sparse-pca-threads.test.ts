import { describe, expect, it } from 'vitest';
import { ImplicitMatrix, productChunks, SCORE_COLUMNS } from '../../src/methods/implicit-matrix';
import { lastProducts, PARALLEL_MIN_NNZ, sparsePca } from '../../src/methods/sparse-pca';
import { syntheticDataset } from '../../src/synthetic';
import { logNormalize } from './fixtures';

describe('sparsePca on two threads (issue 14)', () => {
  it('gives exactly the one-thread result, chunks of the products claimed by worker threads', () => {
    const { dataset } = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 5, seed: 3 });
    const logm = logNormalize(dataset.counts);
    expect(logm.indices.length).toBeGreaterThanOrEqual(PARALLEL_MIN_NNZ);
    const genes = Int32Array.from({ length: 1000 }, (_, j) => j);
    const opts = { seed: 5, powerIterations: 4 };
    const one = sparsePca(logm, genes, 20, { ...opts, threads: 1 });
    expect(lastProducts.inWorker).toBe(0);
    const two = sparsePca(logm, genes, 20, { ...opts, threads: 2 });
    console.log(
      `[sparse-pca] ${logm.indices.length} values: ${lastProducts.inWorker} of ${lastProducts.total} products shared with a worker thread`,
    );
    expect(two.nPcs).toBe(20);
    expect(Array.from(two.variance)).toEqual(Array.from(one.variance));
    expect(Array.from(two.pcs)).toEqual(Array.from(one.pcs));
    // three threads (two workers claiming chunks of cells beside the calling thread, in whatever
    // order the scheduler lets them): the same bits, the chunk sums added in chunk order
    expect(productChunks(logm.indices.length, genes.length, 30)).toBeGreaterThan(2);
    const three = sparsePca(logm, genes, 20, { ...opts, threads: 3 });
    expect(Array.from(three.variance)).toEqual(Array.from(one.variance));
    expect(Array.from(three.pcs)).toEqual(Array.from(one.pcs));
    // the leading PC carries the cluster structure: its variance dominates the tail
    expect(two.variance[0]).toBeGreaterThan(5 * two.variance[19]);
  });

  it('block Krylov: the same bits on 1 and 2 threads with genes-side buffers only, scores as times (issue 33)', () => {
    const { dataset } = syntheticDataset({ nCells: 1500, nGenes: 3000, nClusters: 5, seed: 3 });
    const logm = logNormalize(dataset.counts);
    const genes = Int32Array.from({ length: 1000 }, (_, j) => j);
    const opts = { seed: 5, method: 'block-krylov' as const, maxPowerIterations: 6 };
    const k = SCORE_COLUMNS + 7; // two passes of `scores`, the second narrower
    const one = sparsePca(logm, genes, k, { ...opts, threads: 1 });
    const two = sparsePca(logm, genes, k, { ...opts, threads: 2 });
    expect(lastProducts.inWorker).toBeGreaterThan(0);
    expect(Array.from(two.variance)).toEqual(Array.from(one.variance));
    expect(Array.from(two.pcs)).toEqual(Array.from(one.pcs));
    // scores in SCORE_COLUMNS-wide passes: the float32 of the one-pass product, on both buffers' sizes
    const col = Int32Array.from({ length: logm.nGenes }, (_, g) => (g < 1000 ? g : -1));
    const center = Float64Array.from({ length: 1000 }, (_, j) => (j % 7) / 10);
    const scale = Float64Array.from({ length: 1000 }, (_, j) => 1 + (j % 3));
    const whole = Float32Array.from(new ImplicitMatrix(logm, col, center, scale).times(two.rotation, k));
    for (const cellOperands of [true, false]) {
      const op = new ImplicitMatrix(logm, col, center, scale, k + 10, 2, cellOperands);
      expect(Array.from(op.scores(two.rotation, k))).toEqual(Array.from(whole));
      op.close();
    }
  });
});
