import { sharedData } from '@cellcloud/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellChunksOf, geneBlocksOf } from '../src/cell-chunks';
import { isFormatError } from '../src/errors';
import { smallDataset } from './fixtures';
import { MemorySink } from '../src/hdf5-write';
import type { CountMatrix } from '../src/matrix';
import { fileRandomAccess, fileSink, folderBundle } from '../src/node-sources';
import { read10xMtx } from '../src/read-10x-mtx';
import { readDataset } from '../src/detect';
import { bundleOf, bytesSource } from '../src/sources';
import {
  bytesRandomAccess,
  CountStoreWriter,
  openCountStore,
  writeStoreFrom10xMtx,
  writeStoreFromH5ad,
  type CountStore,
} from '../src/store';
import { writeH5ad } from '../src/write-h5ad';

const pbmcDir = sharedData('pbmc3k/10x');

async function writeStore(
  m: CountMatrix,
  barcodes: string[],
  opts: { chunkCells?: number; tileCells?: number; tileNnz?: number } = {},
  piece = m.nCells,
): Promise<Uint8Array> {
  const sink = new MemorySink();
  const ids = Array.from({ length: m.nGenes }, (_, g) => `G${g}`);
  const w = new CountStoreWriter(
    sink,
    { geneIds: ids, geneSymbols: ids.map((s) => s.toLowerCase()), sampleName: 's1' },
    opts,
  );
  const chunks = cellChunksOf(m, piece);
  for (let i = 0; i < chunks.chunkCount; i++)
    await w.addCells(chunks.chunk(i), barcodes.slice(chunks.chunkStart(i), chunks.chunkStart(i + 1)));
  const r = await w.finish();
  const bytes = sink.bytes();
  expect(r.bytes).toBe(bytes.length);
  expect(r.nCells).toBe(m.nCells);
  expect(r.nnz).toBe(m.indptr[m.nCells]);
  return bytes;
}

/** Index of the first difference of two typed arrays, -1 when equal (toEqual is slow on millions). */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Every cell of the store equals the matrix, and every gene equals geneBlocksOf's, in blocks of `step` genes. */
function expectSame(store: CountStore, m: CountMatrix, step = 1000): void {
  const { cells } = store;
  expect(cells.nCells).toBe(m.nCells);
  expect(cells.nnz).toBe(m.indptr[m.nCells]);
  expect(cells.chunkStart(0)).toBe(0);
  expect(cells.chunkStart(cells.chunkCount)).toBe(m.nCells);
  for (let i = 0; i < cells.chunkCount; i++) {
    const c0 = cells.chunkStart(i);
    const ch = cells.chunk(i);
    expect(ch.nCells).toBe(cells.chunkStart(i + 1) - c0);
    const s = m.indptr[c0]!;
    const e = m.indptr[c0 + ch.nCells]!;
    expect(
      firstDiff(
        ch.indptr,
        Array.from(m.indptr.subarray(c0, c0 + ch.nCells + 1), (x) => x - s),
      ),
    ).toBe(-1);
    expect(firstDiff(ch.indices, m.indices.subarray(s, e))).toBe(-1);
    expect(firstDiff(ch.data, m.data.subarray(s, e))).toBe(-1);
  }
  const ref = geneBlocksOf(m);
  expect(firstDiff(store.genes.geneNnz, ref.geneNnz)).toBe(-1);
  for (let g0 = 0; g0 < m.nGenes; g0 += step) {
    const g1 = Math.min(m.nGenes, g0 + step);
    const a = store.genes.genes(g0, g1);
    const b = ref.genes(g0, g1);
    expect([a.g0, a.g1, a.nCells]).toEqual([g0, g1, m.nCells]);
    expect(firstDiff(a.indptr, b.indptr)).toBe(-1);
    expect(firstDiff(a.indices, b.indices)).toBe(-1);
    expect(firstDiff(a.data, b.data)).toBe(-1);
  }
}

/** fixtures' small matrix with every fifth gene emptied and the given values (its empty cells kept). */
function smallMatrix(
  nGenes: number,
  nCells: number,
  value: (c: number, g: number) => number,
  seed = 1,
): CountMatrix {
  const m = smallDataset(nGenes, nCells, seed).counts;
  const indptr = new Float64Array(nCells + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let c = 0; c < nCells; c++) {
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++) {
      const g = m.indices[k]!;
      if (g % 5 === 2) continue;
      indices.push(g);
      data.push(value(c, g));
    }
    indptr[c + 1] = indices.length;
  }
  return { nGenes, nCells, indptr, indices: Uint32Array.from(indices), data: Float32Array.from(data) };
}

/** A 10x MTX bundle of `m` (cells in order, or last cell first), its feature lines and barcodes. */
function mtxBundle(m: CountMatrix, reversed: boolean, feature: (g: number) => string, barcodes: string[]) {
  const lines: string[] = [];
  for (let i = 0; i < m.nCells; i++) {
    const c = reversed ? m.nCells - 1 - i : i;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++)
      lines.push(`${m.indices[k]! + 1} ${c + 1} ${m.data[k]}`);
  }
  const mtx = `%%MatrixMarket matrix coordinate integer general\n${m.nGenes} ${m.nCells} ${lines.length}\n${lines.join('\n')}\n`;
  const enc = (t: string) => new TextEncoder().encode(t);
  return bundleOf('s', [
    bytesSource('matrix.mtx', enc(mtx)),
    bytesSource('features.tsv', enc(Array.from({ length: m.nGenes }, (_, g) => feature(g)).join('\n'))),
    bytesSource('barcodes.tsv', enc(barcodes.join('\n'))),
  ]);
}

describe('count store', () => {
  it.skipIf(!pbmcDir)('round-trips pbmc3k cell by cell and gene by gene', async () => {
    const ds = await read10xMtx(await folderBundle(pbmcDir!));
    const m = ds.counts;
    const bytes = await writeStore(m, ds.cells.barcodes, {}, 700);
    const store = openCountStore(bytesRandomAccess(bytes));
    expect(store.barcodes).toEqual(ds.cells.barcodes);
    expect(store.geneIds).toHaveLength(m.nGenes);
    expect(store.sampleName).toBe('s1');
    expect(store.valueKind).toBe('counts');
    expect(store.nnz).toBe(2238732);
    expectSame(store, m, 3000);
    // well under the 8 B of an uncompressed non-zero, with the gene-major copy
    expect(bytes.length / store.nnz).toBeLessThan(4);
  });

  it('keeps non-integer values, empty cells and empty genes over several chunks and tiles', async () => {
    const m = smallMatrix(300, 500, (c, g) => ((c * 31 + g) % 97) / 7 + 0.001);
    const barcodes = Array.from({ length: m.nCells }, (_, c) => `cell-${c}`);
    const bytes = await writeStore(m, barcodes, { chunkCells: 37, tileCells: 90, tileNnz: 2500 }, 53);
    const store = openCountStore(bytesRandomAccess(bytes));
    expect(store.cells.chunkCount).toBeGreaterThan(10);
    expect(store.valueKind).toBe('logNormalized');
    expect(store.barcodes).toEqual(barcodes);
    expectSame(store, m, 17);
  });

  it('packs integer values of any size and detects non-integer counts', async () => {
    const big = smallMatrix(40, 60, (c, g) => ((c * g) % 3 === 0 ? 4000000000 : c + g + 1), 3);
    const s1 = openCountStore(
      bytesRandomAccess(
        await writeStore(
          big,
          Array.from({ length: 60 }, (_, i) => `b${i}`),
          { chunkCells: 8, tileCells: 16 },
        ),
      ),
    );
    expectSame(s1, big, 7);
    expect(s1.valueKind).toBe('counts');
    // integers above 2³² (a u32 base cannot hold them) fall back to float32
    const huge = smallMatrix(40, 60, (c, g) => 6e9 + ((c + g) % 7) * 2 ** 10, 5);
    const s3 = openCountStore(
      bytesRandomAccess(
        await writeStore(
          huge,
          Array.from({ length: 60 }, (_, i) => `h${i}`),
          { chunkCells: 8 },
        ),
      ),
    );
    expectSame(s3, huge, 40);
    const tpm = smallMatrix(40, 60, (c, g) => 100 + c + g + 0.5, 4);
    const s2 = openCountStore(
      bytesRandomAccess(
        await writeStore(
          tpm,
          Array.from({ length: 60 }, (_, i) => `b${i}`),
        ),
      ),
    );
    expect(s2.valueKind).toBe('nonIntegerCounts');
    expectSame(s2, tpm, 40);
  });

  it('writes and reads an empty store', async () => {
    const m: CountMatrix = {
      nGenes: 5,
      nCells: 0,
      indptr: new Float64Array(1),
      indices: new Uint32Array(0),
      data: new Float32Array(0),
    };
    const store = openCountStore(bytesRandomAccess(await writeStore(m, [])));
    expect(store.cells.chunkCount).toBe(0);
    expect(store.genes.genes(0, 5).indptr).toEqual(new Float64Array(6));
  });

  it('rejects truncated and damaged files with a FormatError', async () => {
    const m = smallMatrix(100, 200, (c, g) => 1 + ((c + g) % 5));
    const bytes = await writeStore(
      m,
      Array.from({ length: 200 }, (_, c) => `c${c}`),
      { chunkCells: 50, tileCells: 100 },
    );
    const fails = (b: Uint8Array, read = true) => {
      try {
        const s = openCountStore(bytesRandomAccess(b));
        if (read) {
          for (let i = 0; i < s.cells.chunkCount; i++) s.cells.chunk(i);
          s.genes.genes(0, 100);
        }
      } catch (e) {
        if (isFormatError(e)) return e.code;
        throw e;
      }
      return 'no error';
    };
    for (const cut of [0, 10, 100, bytes.length - 40, bytes.length - 1])
      expect(fails(bytes.subarray(0, cut))).toBe('store.corrupt');
    // damage every byte of the data sections in turn (before the footer): never a crash
    let caught = 0;
    for (let p = 16; p < bytes.length - 200; p += 3) {
      const b = bytes.slice();
      b[p] ^= 0x5a;
      const r = fails(b);
      if (r === 'store.corrupt') caught++;
      else expect(r).toBe('no error');
    }
    expect(caught).toBeGreaterThan(0);
  });

  it.skipIf(!pbmcDir)(
    'streams a 10x MTX folder equal to readDataset, and an h5ad from its counts layer',
    async () => {
      const bundle = await folderBundle(pbmcDir!);
      const ds = await readDataset(bundle);
      const sink = new MemorySink();
      const r = await writeStoreFrom10xMtx(bundle, sink, { sampleName: 'pbmc3k', tileNnz: 1 << 20 });
      expect(r.streamed).toBe(true);
      expect(r.warnings).toEqual(ds.warnings.filter((w) => !/value/i.test(w)));
      const store = openCountStore(bytesRandomAccess(sink.bytes()));
      expect(store.geneIds).toEqual(ds.genes.ids);
      expect(store.geneSymbols).toEqual(ds.genes.symbols);
      expect(store.barcodes).toEqual(ds.cells.barcodes);
      expect(store.valueKind).toBe(ds.valueKind);
      expectSame(store, ds.counts, 5000);

      const h5 = await writeH5ad({
        counts: ds.counts,
        normalized: ds.counts,
        genes: ds.genes,
        barcodes: ds.cells.barcodes,
      });
      const hs = new MemorySink();
      const hr = await writeStoreFromH5ad(h5, 'pbmc3k.h5ad', hs, { chunkCells: 1024 });
      expect(hr.streamed).toBe(true);
      const fromH5 = openCountStore(bytesRandomAccess(hs.bytes()));
      expect(fromH5.barcodes).toEqual(ds.cells.barcodes);
      expectSame(fromH5, ds.counts, 5000);
    },
  );

  it('falls back to the in-memory readers for an MTX not sorted by cell and an h5ad without a counts layer', async () => {
    const m = smallMatrix(30, 40, (c, g) => 1 + ((c * g) % 9));
    const bcs = Array.from({ length: m.nCells }, (_, c) => `AAAC${c}-1`);
    const bundle = mtxBundle(m, true, (g) => `ENSG${g}\tG${g}\tGene Expression`, bcs);
    const sink = new MemorySink();
    const r = await writeStoreFrom10xMtx(bundle, sink, { chunkCells: 8, tileCells: 16 });
    expect(r.streamed).toBe(false);
    expect(r.warnings.join(' ')).toMatch(/not sorted by cell/);
    const store = openCountStore(bytesRandomAccess(sink.bytes()));
    expect(store.barcodes).toEqual(bcs);
    expectSame(store, m, 7);

    const h5ad = sharedData('pbmc3k/pbmc3k.h5ad');
    if (!h5ad) return;
    const ds = await readDataset(
      await folderBundle(path.dirname(h5ad)).then((b) =>
        bundleOf(
          'pbmc3k.h5ad',
          b.entries.filter((e) => e.name === 'pbmc3k.h5ad'),
        ),
      ),
    );
    const hs = new MemorySink();
    const hr = await writeStoreFromH5ad(await readFile(h5ad), 'pbmc3k.h5ad', hs);
    expect(hr.streamed).toBe(false);
    expectSame(openCountStore(bytesRandomAccess(hs.bytes())), ds.counts, 5000);
  });

  it('writes through fileSink and reads through fileRandomAccess', async () => {
    const m = smallMatrix(50, 120, (c, g) => 1 + ((c + 2 * g) % 4));
    const dir = mkdtempSync(path.join(tmpdir(), 'store-test-'));
    try {
      const file = path.join(dir, 's.store');
      const sink = await fileSink(file);
      const ids = Array.from({ length: 50 }, (_, g) => `g${g}`);
      const w = new CountStoreWriter(
        sink,
        { geneIds: ids, geneSymbols: ids },
        { chunkCells: 32, tileCells: 64 },
      );
      await w.addCells(
        m,
        Array.from({ length: 120 }, (_, c) => `c${c}`),
      );
      const r = await w.finish();
      await sink.close();
      const source = fileRandomAccess(file);
      try {
        const store = openCountStore(source);
        expect(store.bytes).toBe(r.bytes);
        expect(store.geneMajorBytes).toBeGreaterThan(0);
        expectSame(store, m, 9);
      } finally {
        source.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('streams an MTX with other feature types, repeated gene ids and barcodes as readDataset reads it', async () => {
    const m = smallMatrix(60, 90, (c, g) => 1 + ((c + g) % 6), 9);
    const bcs = Array.from({ length: m.nCells }, (_, c) => `AAAC${c % 80}-1`);
    const feature = (g: number) =>
      `ENSG${g % 50}\tG${g}\t${g % 7 === 0 ? 'Antibody Capture' : 'Gene Expression'}`;
    const bundle = mtxBundle(m, false, feature, bcs);
    const ds = await readDataset(bundle);
    const sink = new MemorySink();
    const r = await writeStoreFrom10xMtx(bundle, sink, { chunkCells: 16, tileCells: 40 });
    expect(r.streamed).toBe(true);
    expect(r.warnings).toEqual(ds.warnings);
    const store = openCountStore(bytesRandomAccess(sink.bytes()));
    expect(store.geneIds).toEqual(ds.genes.ids);
    expect(store.barcodes).toEqual(ds.cells.barcodes);
    expect(store.geneIds.length).toBeLessThan(60);
    expectSame(store, ds.counts, 11);
  });
});
