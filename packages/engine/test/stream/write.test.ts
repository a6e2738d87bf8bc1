import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset, readH5adBytes } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { directorySink } from '../../src/cli/fs-sink';
import { findMarkers } from '../../src/markers';
import { Random } from '../../src/methods/random';
import type { AnalysisResult } from '../../src/run-analysis';
import { subsetCells } from '../../src/sparse';
import { logNormalize } from '../../src/steps/normalize';
import type { StreamedAnalysisResult } from '../../src/stream/types';
import { keepCells, keepCellsGenes, logNormalizedCells, logNormalizedGenes } from '../../src/stream/views';
import { writeStreamedOutputs } from '../../src/stream/write-streamed';
import { parseParams } from '../../src/validate';
import { type OutputSink, writeOutputs } from '../../src/write-outputs';

const PBMC = 'pbmc3k/10x';

/** Relative paths of the files under dir, sorted. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** A sink without positional files: every output is handed over whole. */
function memorySink(): OutputSink & { files: Map<string, Uint8Array> } {
  const stored = new Map<string, Uint8Array>();
  return { files: stored, write: async (p, bytes) => void stored.set(p, bytes.slice()) };
}

describe.skipIf(!hasSharedData(PBMC))('streamed outputs on pbmc3k', () => {
  let root: string;
  let inMemory: AnalysisResult;
  let streamed: StreamedAnalysisResult;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-stream-write-'));
    const dataset = await readDataset(await pathBundle(sharedData(PBMC) as string));
    const all = dataset.counts;
    // a filter's kept cells: every cell but one in ten
    const kept = Uint32Array.from(
      Array.from({ length: all.nCells }, (_, c) => c).filter((c) => c % 10 !== 3),
    );
    const counts: CountMatrix = subsetCells(all, kept);
    const normalized = logNormalize(counts);
    const totals = new Float64Array(counts.nCells);
    for (let c = 0; c < counts.nCells; c++)
      for (let k = counts.indptr[c]; k < counts.indptr[c + 1]; k++) totals[c] += counts.data[k];
    const nClusters = 5;
    const codes = Int32Array.from({ length: counts.nCells }, (_, c) => (c * 7) % nClusters);
    const clusterLabels = Array.from({ length: nClusters }, (_, k) => String(k));
    const geneIds = dataset.genes.ids;
    const geneSymbols = dataset.genes.symbols;
    const random = new Random(7);
    const embedding = (dims: number) => ({
      dims,
      values: Float32Array.from({ length: counts.nCells * dims }, () => random.uniform()),
    });
    inMemory = {
      engineVersion: 'test',
      params: parseParams({}),
      species: 'human',
      sampleNames: ['pbmc3k'],
      counts,
      normalized,
      geneIds,
      geneSymbols,
      barcodes: Array.from(kept, (c) => dataset.cells.barcodes[c]),
      obs: {
        cluster: { kind: 'categorical', values: Array.from(codes, (k) => clusterLabels[k]) },
        total_counts: { kind: 'numeric', values: totals },
      },
      highlyVariable: Uint8Array.from({ length: all.nGenes }, (_, g) => (g % 7 === 0 ? 1 : 0)),
      embeddings: { pca: embedding(10), umap: embedding(2), tsne: embedding(2), umap3D: embedding(3) },
      clusterLabels,
      markers: findMarkers(normalized, codes, clusterLabels, geneSymbols).slice(0, 2000),
      qc: {
        samples: [],
        mitochondrialThreshold: 20,
        doublets: [],
        ambient: [],
        nPcsUsed: 10,
        pcaVarianceRatio: [0.1],
        batchCorrection: 'none',
        seed: 42,
      },
      timings: {},
    };
    // the same result with its matrices as views over the unfiltered counts, as the streamed run gives them
    const cells = keepCells(cellChunksOf(all, 300), kept);
    const genes = keepCellsGenes(geneBlocksOf(all), kept);
    streamed = {
      ...inMemory,
      counts: cells,
      countsGenes: genes,
      normalized: logNormalizedCells(cells, totals),
      normalizedGenes: logNormalizedGenes(genes, totals),
    };
  }, 120_000);

  afterAll(() => rm(root, { recursive: true, force: true }));

  it('writes the files of writeOutputs, byte for byte, into positional files', async () => {
    const a = path.join(root, 'memory');
    const b = path.join(root, 'streamed');
    const expected = await writeOutputs(inMemory, directorySink(a));
    const manifest = await writeStreamedOutputs(streamed, directorySink(b));
    expect(manifest).toEqual(expected);
    const names = await files(a);
    expect(await files(b)).toEqual(names);
    expect(names).toEqual(
      expect.arrayContaining([
        'analysis.h5ad',
        'markers.csv',
        'artifacts/expr/counts.bin',
        'artifacts/expr/normalized.idx',
      ]),
    );
    for (const f of names)
      expect(Buffer.compare(await readFile(path.join(a, f)), await readFile(path.join(b, f))), f).toBe(0);
    // and the h5ad reads back with the in-memory matrices
    const back = await readH5adBytes(new Uint8Array(await readFile(path.join(b, 'analysis.h5ad'))), 'a.h5ad');
    expect(back.counts.nCells).toBe(inMemory.counts.nCells);
    expect(Buffer.from(back.counts.data.buffer).equals(Buffer.from(inMemory.counts.data.buffer))).toBe(true);
  }, 300_000);

  it('and the same bytes into a sink that takes whole files', async () => {
    const a = memorySink();
    const b = memorySink();
    await writeOutputs(inMemory, a);
    await writeStreamedOutputs(streamed, b);
    expect([...b.files.keys()].sort()).toEqual([...a.files.keys()].sort());
    for (const [f, bytes] of a.files) expect(Buffer.compare(bytes, b.files.get(f)!), f).toBe(0);
  }, 300_000);
});
