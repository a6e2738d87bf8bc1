import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf, type CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { fileRandomAccess, fileSink, pathBundle } from '@cellcloud/formats/node-sources';
import { CountStoreWriter, openCountStore } from '@cellcloud/formats/store';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { runAnalysis, type AnalysisResult } from '../../src/run-analysis';
import { adjustedRandIndex } from '../../src/stats/ari';
import { mergeDatasets } from '../../src/steps/inputs';
import { mergeStreamed } from '../../src/stream/merge';
import { runAnalysisStreamed } from '../../src/stream/run-streamed';
import type { StreamedAnalysisResult, StreamedSample } from '../../src/stream/types';
import { syntheticDataset } from '../../src/synthetic';

const PBMC = 'pbmc3k/10x';

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

/** All chunks of a streamed matrix as one cell-major matrix. */
function gather(cells: CellChunks): CountMatrix {
  const parts = Array.from({ length: cells.chunkCount }, (_, i) => cells.chunk(i));
  const nnz = parts.reduce((a, m) => a + m.indptr[m.nCells], 0);
  const indptr = new Float64Array(cells.nCells + 1);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let p = 0;
  let c = 0;
  for (const m of parts) {
    indices.set(m.indices.subarray(0, m.indptr[m.nCells]), p);
    data.set(m.data.subarray(0, m.indptr[m.nCells]), p);
    for (let j = 0; j < m.nCells; j++) indptr[++c] = p + m.indptr[j + 1];
    p += m.indptr[m.nCells];
  }
  return { nGenes: cells.nGenes, nCells: cells.nCells, indptr, indices, data };
}

/** Index of the first element where two arrays differ (−1: equal; vitest's deep equality is slow on millions). */
function firstDifference(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  n = Math.max(a.length, b.length),
): number {
  if (a.length < n || b.length < n) return Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return -1;
}

function expectSameMatrix(a: CountMatrix, b: CountMatrix): void {
  expect(a.nCells).toBe(b.nCells);
  expect(a.nGenes).toBe(b.nGenes);
  const nnz = b.indptr[b.nCells];
  expect(firstDifference(a.indptr, b.indptr, b.nCells + 1)).toBe(-1);
  expect(firstDifference(a.indices, b.indices, nnz)).toBe(-1);
  expect(firstDifference(a.data, b.data, nnz)).toBe(-1);
}

function correlation(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const column = (e: { dims: number; values: Float32Array }, j: number) =>
  Float64Array.from({ length: e.values.length / e.dims }, (_, c) => e.values[c * e.dims + j]);

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

describe.skipIf(!hasSharedData(PBMC))('pbmc3k streamed vs in memory, every default', () => {
  let mem: AnalysisResult;
  let str: StreamedAnalysisResult;
  let dir: string;
  let closeStore = () => {};

  beforeAll(async () => {
    const dataset = await readDataset(await pathBundle(sharedData(PBMC) as string));
    dir = await mkdtemp(path.join(os.tmpdir(), 'stream-run-'));
    const file = path.join(dir, 'pbmc3k.store');
    const sink = await fileSink(file);
    const w = new CountStoreWriter(sink, {
      geneIds: dataset.genes.ids,
      geneSymbols: dataset.genes.symbols,
      sampleName: 'pbmc3k',
    });
    const chunks = cellChunksOf(dataset.counts, 1000);
    for (let i = 0; i < chunks.chunkCount; i++)
      await w.addCells(
        chunks.chunk(i),
        dataset.cells.barcodes.slice(chunks.chunkStart(i), chunks.chunkStart(i + 1)),
      );
    await w.finish();
    await sink.close();
    const source = fileRandomAccess(file);
    closeStore = () => source.close();
    const store = openCountStore(source);
    // the streamed run first: runAnalysis may consume what it is given. Two pipelines, not three
    // (the suite's time): the streamed run reads the count store file, the path jobs take; the
    // in-memory adapters (cellChunksOf / geneBlocksOf) are covered by the merge test above.
    str = await runAnalysisStreamed(
      [{ name: 'pbmc3k', ...store, cells: store.cells, genes: store.genes }],
      {},
    );
    mem = await runAnalysis([{ name: 'pbmc3k', dataset }], {});
  }, 900_000);

  afterAll(async () => {
    closeStore();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the same cells and genes with the same QC and cell-cycle columns', () => {
    expect(str.barcodes).toEqual(mem.barcodes);
    expect(str.geneIds).toEqual(mem.geneIds);
    expect(str.geneSymbols).toEqual(mem.geneSymbols);
    for (const key of [
      'n_genes_by_counts',
      'total_counts',
      'pct_counts_mito',
      'pct_counts_ribo',
      'doublet_score',
      'S_score',
      'G2M_score',
    ])
      expect(
        firstDifference(str.obs[key].values as Float64Array, mem.obs[key].values as Float64Array),
        key,
      ).toBe(-1);
    expect(str.obs.phase.values).toEqual(mem.obs.phase.values);
    expect(new Set(str.obs.phase.values as string[])).toEqual(new Set(['G1', 'S', 'G2M']));
    expect(str.qc.samples).toEqual(mem.qc.samples);
    expect(str.qc.doublets).toEqual(mem.qc.doublets);
  });

  it('gives the same counts and normalized values, cell-major and gene-major', () => {
    expectSameMatrix(gather(str.counts), mem.counts);
    expectSameMatrix(gather(str.normalized), mem.normalized);
    const ref = geneBlocksOf(mem.normalized);
    const b = str.normalizedGenes.genes(100, 400);
    const r = ref.genes(100, 400);
    expect(firstDifference(b.indptr, r.indptr)).toBe(-1);
    expect(firstDifference(b.indices, r.indices)).toBe(-1);
    expect(firstDifference(b.data, r.data)).toBe(-1);
    expect(firstDifference(str.countsGenes.geneNnz, geneBlocksOf(mem.counts).geneNnz)).toBe(-1);
  });

  it('selects the same HVGs and finds the same PCs and clusters', () => {
    expect(firstDifference(str.highlyVariable, mem.highlyVariable)).toBe(-1);
    const dims = mem.embeddings.pca.dims;
    expect(str.embeddings.pca.dims).toBe(dims);
    for (let j = 0; j < dims; j++)
      expect(
        Math.abs(correlation(column(str.embeddings.pca, j), column(mem.embeddings.pca, j))),
      ).toBeGreaterThanOrEqual(0.999);
    expect(str.qc.pcaVarianceRatio).toEqual(mem.qc.pcaVarianceRatio);
    const a = str.obs.cluster.values as string[];
    const b = mem.obs.cluster.values as string[];
    expect(adjustedRandIndex(a, b)).toBeGreaterThanOrEqual(0.99);
    expect(str.clusterLabels).toEqual(mem.clusterLabels);
    for (const key of ['umap', 'tsne', 'umap3D', 'tsne3D'])
      expect(str.embeddings[key]?.dims, key).toBeGreaterThan(1);
  });

  it('finds the same markers', () => {
    expect(str.markers.length).toBeGreaterThan(0);
    expect(str.markers).toEqual(mem.markers);
  });
});
