import { beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf, geneBlocksOf, type CellChunks, type GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { subsetCells } from '../../src/sparse';
import { logNormalize } from '../../src/steps/normalize';
import {
  geneLayersSharingBlocks,
  keepCells,
  keepCellsGenes,
  logNormalizedCells,
  logNormalizedGenes,
} from '../../src/stream/views';

const PBMC = 'pbmc3k/10x';

/** Byte equality of two typed arrays (vitest's deep equality is slow on millions of elements). */
function expectSame(a: ArrayBufferView, b: ArrayBufferView): void {
  expect(a.constructor).toBe(b.constructor);
  const bytes = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  expect(bytes(a).equals(bytes(b))).toBe(true);
}

/** The chunks of a CellChunks joined into one matrix. */
function joined(cells: CellChunks): CountMatrix {
  const indptr = new Float64Array(cells.nCells + 1);
  const indices: Uint32Array[] = [];
  const data: Float32Array[] = [];
  let at = 0;
  for (let i = 0; i < cells.chunkCount; i++) {
    const m = cells.chunk(i);
    const c0 = cells.chunkStart(i);
    expect(m.nCells).toBe(cells.chunkStart(i + 1) - c0);
    for (let c = 0; c < m.nCells; c++) indptr[c0 + c + 1] = at + m.indptr[c + 1];
    at += m.indptr[m.nCells];
    indices.push(m.indices);
    data.push(m.data);
  }
  const cat = <T extends Uint32Array | Float32Array>(parts: T[], make: (n: number) => T): T => {
    const out = make(at);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  return {
    nCells: cells.nCells,
    nGenes: cells.nGenes,
    indptr,
    indices: cat(indices, (n) => new Uint32Array(n)),
    data: cat(data, (n) => new Float32Array(n)),
  };
}

/** Gene blocks read in uneven ranges, compared with the gene-major form of `m`. */
function expectSameGenes(genes: GeneBlocks, m: CountMatrix): void {
  const ref = geneBlocksOf(m);
  expect(genes.nCells).toBe(m.nCells);
  expectSame(genes.geneNnz, ref.geneNnz);
  for (const [g0, g1] of [
    [0, 1],
    [1, 700],
    [700, 5000],
    [5000, m.nGenes],
  ]) {
    const a = genes.genes(g0, g1);
    const b = ref.genes(g0, g1);
    expect([a.g0, a.g1, a.nCells]).toEqual([g0, g1, m.nCells]);
    expectSame(a.indptr, b.indptr);
    expectSame(a.indices, b.indices);
    expectSame(a.data, b.data);
  }
}

describe.skipIf(!hasSharedData(PBMC))('streamed views on pbmc3k', () => {
  let counts: CountMatrix;
  let kept: Uint32Array;

  beforeAll(async () => {
    counts = (await readDataset(await pathBundle(sharedData(PBMC) as string))).counts;
    // every third cell and a run of 300 (whole chunks of 128 left out and kept)
    kept = Uint32Array.from(
      Array.from({ length: counts.nCells }, (_, c) => c).filter(
        (c) => c % 3 === 0 || (c >= 1000 && c < 1300),
      ),
    );
  }, 120_000);

  it('keepCells and keepCellsGenes give the subset of the cells, renumbered', () => {
    const sub = subsetCells(counts, kept);
    const view = keepCells(cellChunksOf(counts, 128), kept);
    expect(view.chunkCount).toBe(Math.ceil(counts.nCells / 128));
    expect(view.nCells).toBe(kept.length);
    expect(view.nnz).toBe(sub.indptr[sub.nCells]);
    const m = joined(view);
    expectSame(m.indptr, Float64Array.from(sub.indptr));
    expectSame(m.indices, Uint32Array.from(sub.indices));
    expectSame(m.data, Float32Array.from(sub.data));
    expectSameGenes(keepCellsGenes(geneBlocksOf(counts), kept), sub);
    expect(() => keepCells(cellChunksOf(counts), Uint32Array.from([3, 2]))).toThrow();
  });

  it('log-normalized views hold exactly the values of logNormalize', () => {
    const totals = new Float64Array(counts.nCells);
    for (let c = 0; c < counts.nCells; c++)
      for (let k = counts.indptr[c]; k < counts.indptr[c + 1]; k++) totals[c] += counts.data[k];
    const norm = logNormalize(counts);
    const cells = joined(logNormalizedCells(cellChunksOf(counts, 500), totals));
    expectSame(cells.data, Float32Array.from(norm.data));
    expectSame(cells.indices, Uint32Array.from(norm.indices));
    expectSameGenes(logNormalizedGenes(geneBlocksOf(counts), totals), norm);
    // a zero total gives zeros, as logNormalize does
    const zero = totals.slice();
    zero[0] = 0;
    const first = logNormalizedCells(cellChunksOf(counts, 500), zero).chunk(0);
    expect(Array.from(first.data.subarray(0, first.indptr[1])).every((v) => v === 0)).toBe(true);
    // already log-normalized values pass through
    const passed = joined(logNormalizedCells(cellChunksOf(norm, 700), totals, 'logNormalized'));
    expectSame(passed.data, Float32Array.from(norm.data));
    expectSameGenes(logNormalizedGenes(geneBlocksOf(norm), totals, 'logNormalized'), norm);
  });

  it('views compose: normalized values of the kept cells', () => {
    const sub = subsetCells(counts, kept);
    const totals = new Float64Array(sub.nCells);
    for (let c = 0; c < sub.nCells; c++)
      for (let k = sub.indptr[c]; k < sub.indptr[c + 1]; k++) totals[c] += sub.data[k];
    const norm = logNormalize(sub);
    const view = logNormalizedCells(keepCells(cellChunksOf(counts, 256), kept), totals);
    expectSame(joined(view).data, Float32Array.from(norm.data));
    expectSameGenes(logNormalizedGenes(keepCellsGenes(geneBlocksOf(counts), kept), totals), norm);
  });

  it('layers sharing blocks: counts then normalized of the same genes decode them once', () => {
    const source = keepCellsGenes(geneBlocksOf(counts), kept);
    const totals = new Float64Array(kept.length);
    for (let g0 = 0; g0 < source.nGenes; g0 += 4000) {
      const b = source.genes(g0, Math.min(source.nGenes, g0 + 4000));
      for (let k = 0; k < b.indices.length; k++) totals[b.indices[k]] += b.data[k];
    }
    let reads = 0;
    const counted: GeneBlocks = {
      nCells: source.nCells,
      nGenes: source.nGenes,
      geneNnz: source.geneNnz,
      genes(g0, g1) {
        reads++;
        return source.genes(g0, g1);
      },
    };
    const normalized = logNormalizedGenes(counted, totals);
    const shared = geneLayersSharingBlocks(counted, normalized);
    const ranges = [
      [0, 1],
      [1, 700],
      [700, 5000],
      [5000, counts.nGenes],
    ];
    for (const [g0, g1] of ranges) {
      const a = shared.counts.genes(g0, g1);
      const b = shared.normalized.genes(g0, g1);
      const wantCounts = source.genes(g0, g1);
      expectSame(a.indices, wantCounts.indices);
      expectSame(a.data, wantCounts.data);
      const wantNorm = logNormalizedGenes(source, totals).genes(g0, g1);
      expectSame(b.indptr, wantNorm.indptr);
      expectSame(b.indices, wantNorm.indices);
      expectSame(b.data, wantNorm.data);
    }
    expect(reads).toBe(ranges.length);
    // not logNormalizedGenes of these counts: the views as given
    const other = geneLayersSharingBlocks(source, normalized);
    expect(other.counts).toBe(source);
    expect(other.normalized).toBe(normalized);
  });
});
