import { beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, type CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { dispersionHvg } from '../../src/stats/dispersion-hvg';
import { seuratV3Hvg } from '../../src/stats/seurat-v3-hvg';
import { logNormalize } from '../../src/steps/normalize';
import type { HvgResult } from '../../src/steps/hvg';
import { lastStreamedHvg, streamedHvg, type StreamedHvgOptions } from '../../src/stream/hvg';
import { countStored } from '../../src/stream/select';
import { logNormalizedCells } from '../../src/stream/views';
import { parseParams } from '../../src/validate';

const PBMC = 'pbmc3k/10x';

/** Byte equality of two typed arrays. */
function expectSame(a: ArrayBufferView, b: ArrayBufferView): void {
  expect(a.constructor).toBe(b.constructor);
  const bytes = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  expect(bytes(a).equals(bytes(b))).toBe(true);
}

function expectSameHvg(a: HvgResult, b: HvgResult): void {
  expectSame(a.selected, b.selected);
  expectSame(a.score, b.score);
  expectSame(a.means, b.means);
}

/**
 * `counts` in chunks of uneven sizes: mostly 100 cells, one of 1,500 (far above the mean, so the
 * two-thread path enlarges its slots mid-pass) and one of 3.
 */
function unevenChunks(counts: CountMatrix): CellChunks {
  const bounds = [0];
  for (let c = 0; c < counts.nCells;) {
    const step = bounds.length === 5 ? 1500 : bounds.length === 9 ? 3 : 100;
    c = Math.min(counts.nCells, c + step);
    bounds.push(c);
  }
  const whole = cellChunksOf(counts, counts.nCells);
  const m = whole.chunk(0);
  return {
    nCells: counts.nCells,
    nGenes: counts.nGenes,
    nnz: m.indptr[counts.nCells],
    chunkCount: bounds.length - 1,
    chunkStart: (i) => bounds[i],
    chunk(i) {
      const [c0, c1] = [bounds[i], bounds[i + 1]];
      const [k0, k1] = [m.indptr[c0], m.indptr[c1]];
      return {
        nCells: c1 - c0,
        nGenes: counts.nGenes,
        indptr: Float64Array.from(m.indptr.subarray(c0, c1 + 1), (p) => p - k0),
        indices: m.indices.slice(k0, k1),
        data: m.data.slice(k0, k1),
      };
    },
  };
}

describe.skipIf(!hasSharedData(PBMC))('the streamed HVG sums on two threads, split by gene (pbmc3k)', () => {
  let counts: CountMatrix;

  beforeAll(async () => {
    counts = (await readDataset(await pathBundle(sharedData(PBMC) as string))).counts;
  }, 120_000);

  for (const hvgMethod of ['seurat_v3', 'seurat'] as const)
    it(`gives the in-memory ${hvgMethod} statistics, bit for bit, on one thread and on two`, () => {
      const params = parseParams({ hvgMethod });
      const nTop = params.numberOfHighlyVariableGenes;
      const cells = unevenChunks(counts);
      const stored = countStored(cells);
      const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
      const run = (options: StreamedHvgOptions) =>
        streamedHvg(cells, normalized, stored.kind, params, options);
      const one = run({ threads: 1 });
      expect(lastStreamedHvg.inWorker).toBe(0);
      const two = run({ threads: 2, parallelMinValues: 0, awaitWorker: true });
      // the worker summed some runs of genes and the calling thread others
      expect(lastStreamedHvg.inWorker).toBeGreaterThan(0);
      expect(lastStreamedHvg.inWorker).toBeLessThan(lastStreamedHvg.runs);
      expectSameHvg(one, two);
      // pbmc3k has counts above their gene's clip: seurat_v3 reads the counts a second time
      expect(lastStreamedHvg.clippedPass).toBe(hvgMethod === 'seurat_v3');
      // the view path (no counts behind the normalized values) and the in-memory statistics
      expectSameHvg(one, streamedHvg(cells, { ...normalized, fromCounts: undefined }, stored.kind, params));
      const d = dispersionHvg(logNormalize(counts), nTop);
      expectSame(one.means, d.means);
      if (hvgMethod === 'seurat_v3') {
        const v = seuratV3Hvg(counts, nTop);
        expectSame(one.score, v.variancesNorm);
        expectSame(one.selected, v.selected);
      } else {
        expectSame(one.score, d.dispersionsNorm);
        expectSame(one.selected, d.selected);
      }
    }, 120_000);

  it('skips the clipped pass when no count is above its clip, with the same bits', () => {
    // pbmc3k's counts capped at 1: every clip (mean + √cells · fitted sd) is above them
    const capped: CountMatrix = { ...counts, data: counts.data.map((x) => Math.min(x, 1)) };
    const params = parseParams({ hvgMethod: 'seurat_v3' });
    const cells = unevenChunks(capped);
    const stored = countStored(cells);
    const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
    const v = seuratV3Hvg(capped, params.numberOfHighlyVariableGenes);
    for (const options of [{ threads: 1 }, { threads: 2, parallelMinValues: 0, awaitWorker: true }]) {
      const hvg = streamedHvg(cells, normalized, stored.kind, params, options);
      expect(lastStreamedHvg.clippedPass).toBe(false);
      expectSame(hvg.score, v.variancesNorm);
      expectSame(hvg.selected, v.selected);
    }
  }, 120_000);

  it('throws a chunk’s read error without leaving a thread waiting', async () => {
    const cells = cellChunksOf(counts, 100);
    const stored = countStored(cells);
    const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
    const failing: CellChunks = {
      ...cells,
      chunkStart: (i) => cells.chunkStart(i),
      chunk(i) {
        if (i === 5) throw new Error('chunk 5 unreadable');
        return cells.chunk(i);
      },
    };
    const options = { threads: 2, parallelMinValues: 0, awaitWorker: true };
    expect(() =>
      streamedHvg(
        failing,
        { ...normalized, fromCounts: { cells: failing, factor: normalized.fromCounts!.factor } },
        stored.kind,
        parseParams({}),
        options,
      ),
    ).toThrow('chunk 5 unreadable');
    // the calling thread is free again: the same call on readable chunks completes
    streamedHvg(cells, normalized, stored.kind, parseParams({}), options);
    expect(lastStreamedHvg.inWorker).toBeGreaterThan(0);
  }, 120_000);

  it('stays on one thread below the parallel threshold', () => {
    const cells = cellChunksOf(counts, 512);
    const stored = countStored(cells);
    const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
    streamedHvg(cells, normalized, stored.kind, parseParams({}), { threads: 2, parallelMinValues: 1e12 });
    expect(lastStreamedHvg.inWorker).toBe(0);
  });
});
