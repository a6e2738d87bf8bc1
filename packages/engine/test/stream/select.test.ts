import { describe, expect, it } from 'vitest';
import { cellChunksOf, geneBlocksOf, type CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { selectCellsAndGenes } from '../../src/sparse';
import { mergedSampleParts, mergeStreamed } from '../../src/stream/merge';
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

describe('selectGenes over merged samples', () => {
  const m = syntheticDataset({ nCells: 900, nGenes: 250, nClusters: 3, seed: 6 }).dataset.counts;
  const ids = Array.from({ length: m.nGenes }, (_, g) => `gene${g}`);
  const range = (a: number, b: number) => Int32Array.from({ length: b - a }, (_, i) => a + i);
  // three samples; the second lacks a fifth of the genes, the third has them in another order
  const lacking = Uint8Array.from({ length: m.nGenes }, (_, g) => (g % 5 === 1 ? 0 : 1));
  const parts = [
    { cells: range(0, 300), keep: new Uint8Array(m.nGenes).fill(1) },
    { cells: range(300, 650), keep: lacking },
    { cells: range(650, 900), keep: new Uint8Array(m.nGenes).fill(1) },
  ];
  const samples = parts.map(({ cells, keep }, s) => {
    const sub = selectCellsAndGenes(m, cells, keep, false);
    let geneIds = ids.filter((_, g) => keep[g]);
    let sample = sub;
    if (s === 2) {
      // genes reversed: the sample's own order differs from the merged one (each cell's values
      // reversed keeps its indices increasing)
      const n = sub.nGenes;
      sample = {
        ...sub,
        indices: Uint32Array.from(sub.indices, (g) => n - 1 - g),
        data: Float32Array.from(sub.data),
      };
      for (let c = 0; c < sample.nCells; c++) {
        sample.indices.subarray(sample.indptr[c], sample.indptr[c + 1]).reverse();
        sample.data.subarray(sample.indptr[c], sample.indptr[c + 1]).reverse();
      }
      geneIds = [...geneIds].reverse();
    }
    return {
      name: `s${s}`,
      cells: cellChunksOf(sample, 100),
      genes: geneBlocksOf(sample),
      geneIds,
      geneSymbols: geneIds,
      barcodes: Array.from({ length: sample.nCells }, (_, c) => `c${c}`),
    };
  });
  const merged = mergeStreamed(samples);
  expect(mergedSampleParts(merged.genes)).toBeDefined();
  // the merged blocks through the plain GeneBlocks interface: the selection copies from the merged block
  const plain = {
    nCells: merged.genes.nCells,
    nGenes: merged.genes.nGenes,
    geneNnz: merged.genes.geneNnz,
    genes: (g0: number, g1: number) => merged.genes.genes(g0, g1),
  };
  const every = range(0, m.nCells);
  const some = every.filter((c) => c % 7 !== 3 && (c < 280 || c >= 330));
  const allGenes = new Uint8Array(m.nGenes).fill(1);
  const someGenes = Uint8Array.from({ length: m.nGenes }, (_, g) => (g % 6 === 2 ? 0 : 1));
  it.each([
    ['every cell and gene', every, allGenes],
    ['some cells and genes', some, someGenes],
  ] as [string, Int32Array, Uint8Array][])(
    '%s: the blocks of the merged copy, to the bit',
    (_, cells, keepGene) => {
      const sel = selection(Uint32Array.from(cells), keepGene);
      const stored = countStored(selectCells(merged.cells, sel));
      const direct = selectGenes(merged.genes, sel, stored.geneNnz);
      const viaCopy = selectGenes(plain, sel, stored.geneNnz);
      const n = sel.genes.length;
      for (const [g0, g1] of [
        [0, n],
        [3, 4],
        [30, 90],
        [10, 10],
      ]) {
        const x = direct.genes(g0, g1);
        const y = viaCopy.genes(g0, g1);
        expect(bytes(x.indptr).equals(bytes(y.indptr))).toBe(true);
        expect(bytes(x.indices).equals(bytes(y.indices))).toBe(true);
        expect(bytes(x.data).equals(bytes(y.data))).toBe(true);
      }
      expect(direct.genes(0, n).indices.length).toBe(stored.nnz);
    },
  );
});
