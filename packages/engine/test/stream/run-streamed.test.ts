import { describe, expect, it } from 'vitest';
import { cellChunksOf, geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import type { Dataset } from '@cellcloud/formats/matrix';
import { mergeDatasets } from '../../src/steps/inputs';
import { mergeStreamed } from '../../src/stream/merge';
import type { StreamedSample } from '../../src/stream/types';
import { syntheticDataset } from '../../src/synthetic';
import { expectSameMatrix, firstDifference, gather } from '../support/same-matrix';

// pbmc3k streamed from a count store against the in-memory pipeline, every default: in
// pbmc3k.test.ts, beside the in-memory run's own checks (one in-memory pbmc3k analysis for both).

function streamed(name: string, d: Dataset, chunkCells = 512): StreamedSample {
  return {
    name,
    cells: cellChunksOf(d.counts, chunkCells),
    genes: geneBlocksOf(d.counts),
    geneIds: d.genes.ids,
    geneSymbols: d.genes.symbols,
    barcodes: d.cells.barcodes,
  };
}

describe('mergeStreamed', () => {
  it('gives mergeDatasets’ matrix and genes for samples with different gene lists', () => {
    const a = syntheticDataset({ nCells: 300, nGenes: 400, seed: 3 }).dataset;
    const b = syntheticDataset({ nCells: 200, nGenes: 400, seed: 3, cellSeed: 9 }).dataset;
    // sample b: genes in reverse order, a fifth of them missing, and 30 genes of its own
    const keep = Array.from({ length: 400 }, (_, g) => 399 - g).filter((g) => g % 5 !== 2);
    const ids = [...keep.map((g) => b.genes.ids[g]), ...Array.from({ length: 30 }, (_, i) => `extra${i}`)];
    const bIndex = new Map(ids.map((id, i) => [id, i]));
    const rows: [number, number][][] = Array.from({ length: b.counts.nCells }, () => []);
    for (let c = 0; c < b.counts.nCells; c++) {
      for (let k = b.counts.indptr[c]; k < b.counts.indptr[c + 1]; k++) {
        const g = bIndex.get(b.genes.ids[b.counts.indices[k]]);
        if (g !== undefined) rows[c].push([g, b.counts.data[k]]);
      }
      rows[c].push([400 - 80 + (c % 30), 1 + (c % 4)]);
      rows[c].sort((x, y) => x[0] - y[0]);
    }
    const flat = rows.flat();
    const b2: Dataset = {
      ...b,
      genes: { ids, symbols: ids.map((id) => `S${id}`) },
      counts: {
        nGenes: ids.length,
        nCells: b.counts.nCells,
        indptr: Float64Array.from(
          [0, ...rows.map((r) => r.length)].map((_, i, arr) =>
            arr.slice(0, i + 1).reduce((s, v) => s + v, 0),
          ),
        ),
        indices: Uint32Array.from(flat, (e) => e[0]),
        data: Float32Array.from(flat, (e) => e[1]),
      },
      cells: { ...b.cells, barcodes: b.cells.barcodes.map((x) => `${x}-b`) },
    };
    const inMemory = mergeDatasets([
      { name: 'a', dataset: a },
      { name: 'b', dataset: b2 },
    ]);
    const m = mergeStreamed([streamed('a', a, 64), streamed('b', b2, 64)]);
    expect(m.geneIds).toEqual(inMemory.geneIds);
    expect(m.geneSymbols).toEqual(inMemory.geneSymbols);
    expect(m.barcodes).toEqual(inMemory.barcodes);
    expect(Array.from(m.sampleOfCell)).toEqual(Array.from(inMemory.sampleOfCell));
    expectSameMatrix(gather(m.cells), inMemory.counts);
    const ref = geneBlocksOf(inMemory.counts);
    expect(Array.from(m.genes.geneNnz)).toEqual(Array.from(ref.geneNnz));
    for (const [g0, g1] of [
      [0, 50],
      [100, 101],
      [300, inMemory.geneIds.length],
    ]) {
      const x = m.genes.genes(g0, g1);
      const y = ref.genes(g0, g1);
      expect(firstDifference(x.indptr, y.indptr)).toBe(-1);
      expect(firstDifference(x.indices, y.indices)).toBe(-1);
      expect(firstDifference(x.data, y.data)).toBe(-1);
    }
  });
});
