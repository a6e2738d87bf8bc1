import { describe, expect, it } from 'vitest';
import { cellChunksOf, geneBlocksOf, type CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { selectCellsAndGenes } from '../../src/sparse';
import { countStored, selectCells, selectGenes, selection } from '../../src/stream/select';
import { syntheticDataset } from '../../src/synthetic';

/** The chunks of a view, one after the other, as one matrix. */
function gather(cells: CellChunks): CountMatrix {
  const parts = Array.from({ length: cells.chunkCount }, (_, i) => cells.chunk(i));
  const indptr = [0];
  const indices: number[] = [];
  const data: number[] = [];
  for (const m of parts) {
    for (let c = 0; c < m.nCells; c++) indptr.push(indices.length + m.indptr[c + 1] - m.indptr[0]);
    indices.push(...m.indices.subarray(0, m.indptr[m.nCells]));
    data.push(...m.data.subarray(0, m.indptr[m.nCells]));
  }
  return {
    nGenes: cells.nGenes,
    nCells: cells.nCells,
    indptr: Float64Array.from(indptr),
    indices: Uint32Array.from(indices),
    data: Float32Array.from(data),
  };
}

const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('selectCells / selectGenes (views of the kept cells and genes)', () => {
  const m = syntheticDataset({ nCells: 900, nGenes: 250, nClusters: 3, seed: 5 }).dataset.counts;
  const every = Int32Array.from({ length: m.nCells }, (_, c) => c);
  // runs of consecutive kept cells, single gaps, and a whole chunk (cells 512–639) dropped
  const some = every.filter((c) => (c < 100 || c % 7 !== 3) && (c < 512 || c >= 640));
  const allGenes = new Uint8Array(m.nGenes).fill(1);
  const someGenes = Uint8Array.from({ length: m.nGenes }, (_, g) =>
    g % 6 === 2 || (g >= 40 && g < 47) ? 0 : 1,
  );
  const cases: [string, Int32Array, Uint8Array][] = [
    ['every cell and gene', every, allGenes],
    ['every cell, some genes', every, someGenes],
    ['some cells, every gene', some, allGenes],
    ['some cells and genes', some, someGenes],
  ];
  it.each(cases)('%s: the values of selectCellsAndGenes, to the bit', (_, cells, keepGene) => {
    const expected = selectCellsAndGenes(m, cells, keepGene, false);
    const sel = selection(Uint32Array.from(cells), keepGene);
    const view = selectCells(cellChunksOf(m, 128), sel);
    const got = gather(view);
    expect(got.nCells).toBe(expected.nCells);
    expect(got.nGenes).toBe(expected.nGenes);
    expect(bytes(got.indptr).equals(bytes(expected.indptr))).toBe(true);
    expect(bytes(got.indices).equals(bytes(Uint32Array.from(expected.indices)))).toBe(true);
    expect(bytes(got.data).equals(bytes(expected.data))).toBe(true);

    const stored = countStored(view);
    const genes = selectGenes(geneBlocksOf(m), sel, stored.geneNnz);
    const ref = geneBlocksOf(expected);
    for (const [g0, g1] of [
      [0, expected.nGenes],
      [3, 4],
      [30, 90],
      [10, 10],
    ]) {
      const x = genes.genes(g0, g1);
      const y = ref.genes(g0, g1);
      expect(x.indptr.length).toBe(g1 - g0 + 1);
      expect(bytes(x.indptr).equals(bytes(y.indptr))).toBe(true);
      expect(bytes(x.indices).equals(bytes(y.indices))).toBe(true);
      expect(bytes(x.data).equals(bytes(y.data))).toBe(true);
    }
  });
});
