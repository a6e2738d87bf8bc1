import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { geneBlocksOf } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { findMarkers } from '../../src/markers';
import { logNormalize } from '../../src/steps/normalize';
import { lastStreamedMarkers, streamedMarkers, streamedMarkersWorkersExited } from '../../src/stream/markers';

const PBMC = 'pbmc3k/10x';
const LABELS = 'pbmc3k/pbmc3k_seurat_labels.csv';

describe.skipIf(!hasSharedData(PBMC, LABELS))('streamed markers on pbmc3k', () => {
  let norm: CountMatrix;
  let ids: string[];
  let symbols: string[];
  let codes: Int32Array;
  let labels: string[];

  beforeAll(async () => {
    const dataset = await readDataset(await pathBundle(sharedData(PBMC) as string));
    norm = logNormalize(dataset.counts);
    ids = dataset.genes.ids;
    symbols = dataset.genes.symbols;
    const csv = await readFile(sharedData(LABELS) as string, 'utf8');
    const byBarcode = new Map(
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    const cellLabels = dataset.cells.barcodes.map((b) => byBarcode.get(b) ?? '');
    labels = [...new Set(cellLabels)].sort();
    codes = Int32Array.from(cellLabels, (l) => labels.indexOf(l));
    expect(labels.length).toBe(9);
  }, 120_000);

  const same = (a: unknown, b: unknown) => expect(JSON.stringify(a) === JSON.stringify(b)).toBe(true);

  it('gives the rows of the in-memory markers, on one thread and on two', async () => {
    const expected = findMarkers(norm, codes, labels, symbols);
    expect(expected.length).toBe(9 * norm.nGenes);
    const genes = geneBlocksOf(norm);
    const fractions: number[] = [];
    const one = streamedMarkers({
      genes,
      clusterCodes: codes,
      clusterLabels: labels,
      geneIds: ids,
      geneSymbols: symbols,
      options: { threads: 1 },
      progress: (f) => fractions.push(f),
    });
    same(one, expected);
    expect(one.slice(0, 3)).toEqual(expected.slice(0, 3));
    expect(fractions.at(-1)).toBe(1);
    // small blocks on two threads: the worker ranks part of every block
    const two = streamedMarkers({
      genes,
      clusterCodes: codes,
      clusterLabels: labels,
      geneIds: ids,
      geneSymbols: symbols,
      options: { threads: 2, parallelMinValues: 0, blockValues: 100_000, awaitWorker: true },
    });
    expect(lastStreamedMarkers.blocks).toBeGreaterThan(20);
    expect(lastStreamedMarkers.inWorker).toBeGreaterThan(0);
    expect(lastStreamedMarkers.inWorker).toBeLessThan(norm.nGenes);
    same(two, expected);
    await streamedMarkersWorkersExited();
  }, 120_000);

  it('leaves cells coded −1 out of the test, as the in-memory test does', () => {
    const some = Int32Array.from(codes, (c, i) => (i % 4 === 0 ? -1 : c));
    const expected = findMarkers(norm, some, labels, symbols);
    const rows = streamedMarkers({
      genes: geneBlocksOf(norm),
      clusterCodes: some,
      clusterLabels: labels,
      geneIds: ids,
      geneSymbols: symbols,
      options: { threads: 2, parallelMinValues: 0, blockValues: 500_000 },
    });
    same(rows, expected);
  }, 120_000);

  it('throws when a block cannot be read, and its worker thread exits', async () => {
    const genes = geneBlocksOf(norm);
    let reads = 0;
    const failing = {
      ...genes,
      genes(g0: number, g1: number) {
        if (++reads === 4) throw new Error('unreadable block');
        return genes.genes(g0, g1);
      },
    };
    expect(() =>
      streamedMarkers({
        genes: failing,
        clusterCodes: codes,
        clusterLabels: labels,
        geneIds: ids,
        geneSymbols: symbols,
        options: { threads: 2, parallelMinValues: 0, blockValues: 200_000, awaitWorker: true },
      }),
    ).toThrow('unreadable block');
    await streamedMarkersWorkersExited();
  }, 120_000);
});
