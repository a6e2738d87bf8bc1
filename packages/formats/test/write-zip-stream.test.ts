import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzip } from '../src/archive';
import type { CountMatrix } from '../src/matrix';
import { concatChunks } from '../src/sources';
import { matrixMarketChunks, write10xMtx } from '../src/write-10x-mtx';
import { zipWriter } from '../src/write-zip';

/**
 * The streamed writers of the Seurat export (issue 21): MatrixMarket text in chunks equals the
 * whole-file writer's, a per-entry value replaces the stored one, and the streamed zip opens with
 * our own unzip — `.gz` entries gzipped (stored), the others deflated — arriving in many chunks.
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
    const chunks = [...matrixMarketChunks(m, 'integer', undefined, 2)];
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
      concatChunks([...matrixMarketChunks(m, 'real', (k, c) => m.data[k]! * 2 + c)]),
    );
    expect(doubled.trim().split('\n').slice(-3)).toEqual(['2 3 6', '3 3 16', '4 3 4']);
  });

  it('streams a zip that unzips to the same entries', async () => {
    const out: Uint8Array[] = [];
    const zip = zipWriter((c) => out.push(c));
    const text = 'barcode,cluster\n' + Array.from({ length: 5000 }, (_, i) => `c${i},${i % 7}`).join('\n');
    const enc = new TextEncoder();
    zip.add('counts/matrix.mtx.gz', matrixMarketChunks(m, 'integer', undefined, 1));
    zip.add('metadata.csv', [enc.encode(text.slice(0, 1000)), enc.encode(text.slice(1000))]);
    zip.end();
    expect(out.length).toBeGreaterThan(3);
    const entries = unzip(concatChunks(out), 'bundle.zip');
    expect(entries.map((e) => e.name)).toEqual(['counts/matrix.mtx.gz', 'metadata.csv']);
    const gz = await entries[0]!.read(0, entries[0]!.size);
    expect(dec.decode(gunzipSync(gz))).toBe(dec.decode(concatChunks([...matrixMarketChunks(m, 'integer')])));
    expect(dec.decode(await entries[1]!.read(0, entries[1]!.size))).toBe(text);
  });
});
