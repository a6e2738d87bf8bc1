import { describe, expect, it } from 'vitest';
import { selectCellsAndGenes, subsetCells, subsetGenes } from '../src/sparse';
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
