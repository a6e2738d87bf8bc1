import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzip } from '../src/archive';
import type { CountMatrix } from '../src/matrix';
import { concatChunks } from '../src/sources';
import { cellBlocksOf } from '../src/cell-blocks';
import { matrixMarketChunks, write10xMtx } from '../src/write-10x-mtx';
import { zipWriter } from '../src/write-zip';
import { writeH5ad } from '../src/write-h5ad';
import { readH5adBytes } from '../src/read-h5ad';
import { withH5adCellBlocks } from '../src/h5ad-cell-blocks';

/**
 * The streamed writers of the Seurat export (issue 21): MatrixMarket text in chunks equals the
 * whole-file writer's, a per-entry value replaces the stored one, and the streamed zip opens with
 * our own unzip — `.gz` entries gzipped (stored), the others deflated — arriving in many chunks;
 * an .h5ad's counts read in cell blocks give the same text as the whole-matrix reader.
 */
const m: CountMatrix = {
  nCells: 3,
  nGenes: 4,
  indptr: new Int32Array([0, 2, 2, 5]) as unknown as CountMatrix['indptr'],
  indices: new Int32Array([0, 3, 1, 2, 3]) as unknown as CountMatrix['indices'],
  data: new Float32Array([1, 5, 2, 7, 1]) as unknown as CountMatrix['data'],
} as CountMatrix;
const dec = new TextDecoder();

describe('streamed MTX and zip writers', () => {
  it('writes the same MatrixMarket text a few entries at a time, with per-entry values', () => {
    const chunks = [...matrixMarketChunks(cellBlocksOf(m), 'integer', undefined, 2)];
    expect(chunks.length).toBeGreaterThan(2);
    const whole = write10xMtx(
      m,
      { ids: ['a', 'b', 'c', 'd'], symbols: ['A', 'B', 'C', 'D'] },
      ['x', 'y', 'z'],
      {
        gzip: false,
      },
    );
    expect(dec.decode(concatChunks(chunks))).toBe(dec.decode(whole['matrix.mtx']));
    const doubled = dec.decode(
      concatChunks([...matrixMarketChunks(cellBlocksOf(m), 'real', (x, c) => x * 2 + c)]),
    );
    expect(doubled.trim().split('\n').slice(-3)).toEqual(['2 3 6', '3 3 16', '4 3 4']);
  });

  it('streams a zip that unzips to the same entries', async () => {
    const out: Uint8Array[] = [];
    const zip = zipWriter((c) => out.push(c));
    const text = 'barcode,cluster\n' + Array.from({ length: 5000 }, (_, i) => `c${i},${i % 7}`).join('\n');
    const enc = new TextEncoder();
    zip.add('counts/matrix.mtx.gz', matrixMarketChunks(cellBlocksOf(m), 'integer', undefined, 1));
    zip.add('metadata.csv', [enc.encode(text.slice(0, 1000)), enc.encode(text.slice(1000))]);
    zip.end();
    expect(out.length).toBeGreaterThan(3);
    const entries = unzip(concatChunks(out), 'bundle.zip');
    expect(entries.map((e) => e.name)).toEqual(['counts/matrix.mtx.gz', 'metadata.csv']);
    const gz = await entries[0]!.read(0, entries[0]!.size);
    expect(dec.decode(gunzipSync(gz))).toBe(
      dec.decode(concatChunks([...matrixMarketChunks(cellBlocksOf(m), 'integer')])),
    );
    expect(dec.decode(await entries[1]!.read(0, entries[1]!.size))).toBe(text);
  });

  it('reads the counts of an .h5ad in cell blocks (HDF5 slices) as the whole-matrix reader does', async () => {
    // 300 cells, entries spread over several compressed chunks of 64 elements
    const nCells = 300;
    const nGenes = 20;
    const indptr = new Float64Array(nCells + 1);
    const idx: number[] = [];
    const val: number[] = [];
    for (let c = 0; c < nCells; c++) {
      for (let g = c % 3; g < nGenes; g += 1 + (c % 5)) {
        idx.push(g);
        val.push(1 + ((c * 7 + g) % 11));
      }
      indptr[c + 1] = idx.length;
    }
    const counts = {
      nCells,
      nGenes,
      indptr,
      indices: Uint32Array.from(idx),
      data: Float32Array.from(val),
    } as unknown as CountMatrix;
    const genes = {
      ids: Array.from({ length: nGenes }, (_, g) => `G${g}`),
      symbols: Array.from({ length: nGenes }, (_, g) => `g${g}`),
    };
    const barcodes = Array.from({ length: nCells }, (_, c) => `cell${c}`);
    // with normalized values in X, the counts go to layers["counts"] as in analysis.h5ad
    const normalized = { ...counts, data: counts.data.map((x) => Math.log1p(x)) } as CountMatrix;
    const bytes = await writeH5ad({ counts, normalized, genes, barcodes, blockElements: 64 });
    const whole = await readH5adBytes(bytes, 'x.h5ad');
    const expected = dec.decode(concatChunks([...matrixMarketChunks(cellBlocksOf(whole.counts), 'integer')]));
    const streamed = await withH5adCellBlocks(bytes, 'x.h5ad', (p) => {
      expect(p.cells.barcodes).toEqual(barcodes);
      expect(p.genes.ids).toEqual(genes.ids);
      return dec.decode(concatChunks([...matrixMarketChunks(p.counts, 'integer', undefined, 50)]));
    });
    expect(streamed).toBe(expected);
    // counts in X (no counts layer): the whole-matrix reader, same text
    const plain = await writeH5ad({ counts, genes, barcodes });
    const fallback = await withH5adCellBlocks(plain, 'x.h5ad', (p) =>
      dec.decode(concatChunks([...matrixMarketChunks(p.counts, 'integer')])),
    );
    expect(fallback).toBe(expected);
    expect(streamed.split('\n')[2]).toBe(`${nGenes} ${nCells} ${idx.length}`);
  });
});
