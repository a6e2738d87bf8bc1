import { beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { ImplicitMatrix, PARALLEL_MIN_NNZ, type ProductMatrix } from '../../src/methods/implicit-matrix';
import { Random } from '../../src/methods/random';
import { COUNT_TABLE_SIZE } from '../../src/methods/sparse-products';
import { geneMoments, MAX_SCALED_VALUE, PCA_START_SEED, scaledSparsePca } from '../../src/steps/pca';
import { streamedHvg } from '../../src/stream/hvg';
import { hvgSubmatrix } from '../../src/stream/pca';
import { countStored } from '../../src/stream/select';
import { logNormalizedCells, type NormalizedCells } from '../../src/stream/views';
import { parseParams } from '../../src/validate';

const PBMC = 'pbmc3k/10x';

/** Byte equality of two typed arrays (vitest's deep equality is slow on millions of elements). */
function expectSame(a: ArrayBufferView, b: ArrayBufferView): void {
  expect(a.constructor).toBe(b.constructor);
  const bytes = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  expect(bytes(a).equals(bytes(b))).toBe(true);
}

/** The normalized view of `counts` in 300-cell chunks, its HVGs (every default) and stored-value counts. */
function normalizedOf(counts: CountMatrix) {
  const cells = cellChunksOf(counts, 300);
  const stored = countStored(cells);
  const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
  const { selected } = streamedHvg(cells, normalized, stored.kind, parseParams({}));
  return { normalized, selected, geneNnz: stored.geneNnz };
}

/** The same view without its counts: the HVG submatrix then holds float32 values. */
const valuesOnly = (v: NormalizedCells): NormalizedCells => ({ ...v, fromCounts: undefined });

describe.skipIf(!hasSharedData(PBMC))('the streamed PCA’s HVG submatrix held as counts (pbmc3k)', () => {
  let counts: CountMatrix;
  let asCounts: ProductMatrix;
  let asValues: ProductMatrix;

  beforeAll(async () => {
    counts = (await readDataset(await pathBundle(sharedData(PBMC) as string))).counts;
    const { normalized, selected, geneNnz } = normalizedOf(counts);
    asCounts = hvgSubmatrix(normalized, selected, geneNnz);
    asValues = hvgSubmatrix(valuesOnly(normalized), selected, geneNnz);
  }, 120_000);

  it('holds 2-byte counts and gene indices, and the float32 variant the values', () => {
    expect(asCounts.countValues?.counts).toBeInstanceOf(Uint16Array);
    expect(asCounts.indices).toBeInstanceOf(Uint16Array);
    expect(asCounts.data.length).toBe(0);
    expect(asValues.countValues).toBeUndefined();
    expect(asValues.data.length).toBe(asCounts.indptr[asCounts.nCells]);
    expectSame(asCounts.indptr, asValues.indptr);
    expectSame(asCounts.indices, asValues.indices);
    // pbmc3k's HVGs have counts beyond the cells' tables: both decodings are exercised
    const n = asCounts.countValues?.counts ?? new Uint16Array(0);
    expect(n.some((x) => x >= COUNT_TABLE_SIZE)).toBe(true);
    expect(n.some((x) => x < COUNT_TABLE_SIZE)).toBe(true);
  });

  it('gives the same gene moments and the same bits of each product, on one thread and on two', () => {
    const a = geneMoments(asCounts);
    const b = geneMoments(asValues);
    expectSame(a.center, b.center);
    expectSame(a.variance, b.variance);
    // every expressed gene (2.2M values: the products share chunks with a worker thread from 1M)
    const { normalized, geneNnz } = normalizedOf(counts);
    const expressed = Uint8Array.from(geneNnz, (n) => (n > 0 ? 1 : 0));
    const all = [normalized, valuesOnly(normalized)].map((v) => hvgSubmatrix(v, expressed, geneNnz));
    expect(all[0].countValues).toBeDefined();
    expect(all[0].indptr[all[0].nCells]).toBeGreaterThanOrEqual(PARALLEL_MIN_NNZ);
    const { center, scale } = geneMoments(all[1]);
    const p = all[0].nGenes;
    const col = Int32Array.from({ length: p }, (_, g) => g);
    const rng = new Random(11);
    const w = 24;
    const left = Float64Array.from({ length: p * w }, () => rng.normal());
    const right = Float64Array.from({ length: all[0].nCells * w }, () => rng.normal());
    // two threads: the products read the shared copy of the counts, tables and caps, as a worker does
    for (const threads of [1, 2]) {
      const ops = all.map((m) => new ImplicitMatrix(m, col, center, scale, w, threads));
      try {
        expectSame(ops[0].times(left, w), ops[1].times(left, w));
        expectSame(ops[0].transposeTimes(right, w), ops[1].transposeTimes(right, w));
        expectSame(ops[0].gram(left, w), ops[1].gram(left, w));
      } finally {
        for (const op of ops) op.close();
      }
    }
  });

  it('gives the same PCs and variance ratios, the clipped values included', () => {
    // some HVG values lie above mean + 10 sd: the counts' per-gene caps are exercised
    const { center, scale } = geneMoments(asValues);
    let clipped = 0;
    for (let k = 0; k < asValues.data.length; k++) {
      const g = asValues.indices[k];
      if (scale[g] > 0 && asValues.data[k] > center[g] + MAX_SCALED_VALUE / scale[g]) clipped++;
    }
    expect(clipped).toBeGreaterThan(0);
    const fromCounts = scaledSparsePca(asCounts, PCA_START_SEED, MAX_SCALED_VALUE, true);
    const fromValues = scaledSparsePca(asValues, PCA_START_SEED, MAX_SCALED_VALUE, true);
    expect(fromCounts.nComputed).toBe(fromValues.nComputed);
    expectSame(fromCounts.pcs, fromValues.pcs);
    expectSame(fromCounts.varianceRatio, fromValues.varianceRatio);
  }, 120_000);
});

describe('the streamed PCA’s HVG submatrix falls back to float32 values', () => {
  /** 40 cells × 30 genes, every value stored; `big` (if given) set at cell 5, gene 3. */
  function matrix(big?: number): CountMatrix {
    const nCells = 40;
    const nGenes = 30;
    const indptr = Float64Array.from({ length: nCells + 1 }, (_, c) => c * nGenes);
    const indices = Uint32Array.from({ length: nCells * nGenes }, (_, k) => k % nGenes);
    const data = Float32Array.from({ length: nCells * nGenes }, (_, k) => 1 + ((k * 7919) % 23));
    if (big !== undefined) data[5 * nGenes + 3] = big;
    return { nGenes, nCells, indptr, indices, data };
  }

  it('when a selected count does not fit in 2 bytes, or the values are not integer counts', () => {
    const selected = new Uint8Array(30).fill(1);
    for (const [big, kind] of [
      [70_000, 'counts'],
      [65_535, 'counts'],
      [100.5, 'nonIntegerCounts'],
    ] as const) {
      const cells = cellChunksOf(matrix(big), 16);
      const stored = countStored(cells);
      expect(stored.kind).toBe(kind);
      const normalized = logNormalizedCells(cells, stored.totals, stored.kind);
      const sub = hvgSubmatrix(normalized, selected, stored.geneNnz);
      const reference = hvgSubmatrix(valuesOnly(normalized), selected, stored.geneNnz);
      expect(sub.countValues === undefined, `${big}`).toBe(big !== 65_535);
      expect(geneMoments(sub)).toEqual(geneMoments(reference));
    }
  });
});
