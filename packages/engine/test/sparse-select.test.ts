import { describe, expect, it } from 'vitest';
import { lastProducts, PARALLEL_MIN_NNZ } from '../src/methods/implicit-matrix';
import { sparsePca } from '../src/methods/sparse-pca';
import { selectCellsAndGenes, subsetCells, subsetGenes, subsetGenesCompact } from '../src/sparse';
import { geneMoments } from '../src/steps/pca';
import { syntheticDataset } from '../src/synthetic';

describe('selectCellsAndGenes', () => {
  it('equals subsetCells then subsetGenes, in place (views on the same buffers) or as a copy', () => {
    const { dataset } = syntheticDataset({ nCells: 400, nGenes: 300, nClusters: 3, seed: 1 });
    const m = dataset.counts;
    // keep runs of consecutive cells (the in-place start-of-cell case) and gaps
    const cells = Int32Array.from({ length: m.nCells }, (_, c) => c).filter((c) => c < 50 || c % 3 !== 0);
    const genes = Uint8Array.from({ length: m.nGenes }, (_, g) => (g % 4 === 1 ? 0 : 1));
    const expected = subsetGenes(subsetCells(m, cells), genes);
    const copy = selectCellsAndGenes(m, cells, genes, false);
    expect(copy).toEqual(expected);
    const own = { ...m, indptr: m.indptr.slice(), indices: m.indices.slice(), data: m.data.slice() };
    const inPlace = selectCellsAndGenes(own, cells, genes, true);
    expect(inPlace.indices.buffer).toBe(own.indices.buffer);
    expect({
      ...inPlace,
      indptr: Float64Array.from(inPlace.indptr),
      indices: Uint32Array.from(inPlace.indices),
      data: Float32Array.from(inPlace.data),
    }).toEqual(expected);
    expect(selectCellsAndGenes(m, cells, undefined, false)).toEqual(subsetCells(m, cells));
  });
});

describe('subsetGenesCompact (issue 33: 2-byte gene indices for the PCA)', () => {
  it('holds the same matrix with Uint16 indices, and its PCA is the same to the bit', () => {
    // > PARALLEL_MIN_NNZ stored values, so the products run on the worker thread too
    const { dataset } = syntheticDataset({ nCells: 6000, nGenes: 600, nClusters: 4, seed: 3 });
    const m = dataset.counts;
    const keep = Uint8Array.from({ length: m.nGenes }, (_, g) => (g % 5 === 0 ? 0 : 1));
    const wide = subsetGenes(m, keep, true);
    const compact = subsetGenesCompact(m, keep, true);
    expect(compact.indices).toBeInstanceOf(Uint16Array);
    expect(compact.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(compact.nGenes).toBe(wide.nGenes);
    // (byte comparisons: toEqual walks a million-element array for seconds)
    const same = (x: ArrayBufferView, y: ArrayBufferView) =>
      Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(
        Buffer.from(y.buffer, y.byteOffset, y.byteLength),
      );
    expect(same(Uint32Array.from(compact.indices), wide.indices)).toBe(true);
    expect(same(compact.data, wide.data)).toBe(true);
    expect(same(compact.indptr, wide.indptr)).toBe(true);
    expect(wide.indptr[wide.nCells]).toBeGreaterThan(PARALLEL_MIN_NNZ);
    // the scaled PCA's products, on two threads, with a few PCs (the PCA step asks for 50)
    const pca = (x: typeof compact) => {
      const { scale, center } = geneMoments(x);
      const genes = Int32Array.from({ length: x.nGenes }, (_, g) => g);
      return sparsePca(x, genes, 5, { center, scale, seed: 42, method: 'block-krylov', threads: 2 });
    };
    const a = pca(wide);
    const b = pca(compact);
    expect(lastProducts.inWorker).toBeGreaterThan(0);
    expect(same(b.pcs, a.pcs)).toBe(true);
    expect(b.variance).toEqual(a.variance);
    // every gene kept: the matrix itself, as subsetGenes
    expect(subsetGenesCompact(m, new Uint8Array(m.nGenes).fill(1))).toBe(m);
  });
});
