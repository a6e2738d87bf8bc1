import { describe, expect, it } from 'vitest';
import {
  ArtifactFormatError,
  decodeCategorical,
  decodeGeneChunk,
  geneByteRange,
  normalizeEmbedding,
  parseGeneIndex,
  parseGenes,
  quantisedPositionsDecoder,
} from '../../src/features/explore/data/decode';
import { parseManifest } from '../../src/features/explore/data/manifest';
import { fingerprint } from '../../src/features/explore/data/rangeFetch';

/**
 * A format-2 chunk (docs/artifacts.md#format-2) built byte by byte: cells 1 and 4 with values 2.5
 * and 7: header, varints 1 and 2 (first cell, then gap − 1), levels, 2 bytes of padding, floats.
 */
function compactFixture(): { bytes: Uint8Array; colourLength: number } {
  const v = new DataView(new ArrayBuffer(32));
  v.setUint32(0, 0xffffffff, true);
  v.setUint32(4, 2, true);
  v.setFloat32(8, 7, true);
  v.setUint32(12, 2, true);
  v.setUint8(16, 1);
  v.setUint8(17, 2);
  v.setUint16(18, Math.round((2.5 / 7) * 65535), true);
  v.setUint16(20, 65535, true);
  v.setFloat32(24, 2.5, true);
  v.setFloat32(28, 7, true);
  return { bytes: new Uint8Array(v.buffer), colourLength: 22 };
}

function chunk(cells: number[], vals: number[]): Uint8Array {
  const b = new ArrayBuffer(4 + 8 * cells.length);
  const v = new DataView(b);
  v.setUint32(0, cells.length, true);
  cells.forEach((c, i) => v.setUint32(4 + 4 * i, c, true));
  vals.forEach((x, i) => v.setFloat32(4 + 4 * cells.length + 4 * i, x, true));
  return new Uint8Array(b);
}

describe('artifact decoding', () => {
  it('decodes a sparse gene chunk into a dense column', () => {
    const g = decodeGeneChunk(chunk([1, 4], [2.5, 7]), 6);
    expect(Array.from(g.values)).toEqual([0, 2.5, 0, 0, 7, 0]);
    expect(g.max).toBe(7);
    expect(g.nnz).toBe(2);
    expect(decodeGeneChunk(new Uint8Array(0), 3).nnz).toBe(0);
  });
  it('lists the non-zero cells of a chunk when they are ascending', () => {
    expect(Array.from(decodeGeneChunk(chunk([1, 4], [2.5, 7]), 6).nz!)).toEqual([1, 4]);
    expect(Array.from(decodeGeneChunk(new Uint8Array(0), 3).nz!)).toEqual([]);
    const unordered = decodeGeneChunk(chunk([4, 1], [7, 2.5]), 6);
    expect(unordered.nz).toBeNull();
    expect(Array.from(unordered.values)).toEqual([0, 2.5, 0, 0, 7, 0]);
  });
  it('decodes a chunk that is a view into a larger buffer', () => {
    const c = chunk([0], [3]);
    const big = new Uint8Array(c.length + 8);
    big.set(c, 8);
    expect(Array.from(decodeGeneChunk(big.subarray(8), 2).values)).toEqual([3, 0]);
  });
  it('rejects chunks with a wrong length or an out-of-range cell', () => {
    expect(() => decodeGeneChunk(chunk([1], [1]).subarray(0, 10), 4)).toThrow(ArtifactFormatError);
    expect(() => decodeGeneChunk(chunk([9], [1]), 4)).toThrow(/cell 9/);
  });
  it('decodes format-2 chunks: exact values from the whole chunk, colour levels from its prefix', () => {
    const { bytes, colourLength } = compactFixture();
    const exact = decodeGeneChunk(bytes, 6);
    expect(Array.from(exact.nz!)).toEqual([1, 4]);
    expect(Array.from(exact.values)).toEqual([0, 2.5, 0, 0, 7, 0]);
    expect(exact.max).toBe(7);
    const colour = decodeGeneChunk(bytes.slice(0, colourLength), 6);
    expect(Array.from(colour.nz!)).toEqual([1, 4]);
    expect(colour.max).toBe(7);
    expect(Math.abs(colour.values[1]! - 2.5)).toBeLessThanOrEqual(7 / 131070);
    expect(colour.values[4]).toBe(7);
    expect(() => decodeGeneChunk(bytes.slice(0, colourLength - 2), 6)).toThrow(ArtifactFormatError);
    expect(() => decodeGeneChunk(bytes, 4)).toThrow(/cell 4/);
  });

  it('normalizes 24-bit positions (format 2) as the float32 positions they stand for', () => {
    // x in [-3, 5], y in [-8, 10]: q = 0, 2^24 − 1 and the middle of each axis
    const raw = Float32Array.from([-3, 10, 5, -8, 1, 1]);
    const q = [0, 0xffffff, 0xffffff, 0, 0x800000, 0x800000];
    const bytes = new Uint8Array(q.flatMap((x) => [x & 0xff, (x >> 8) & 0xff, x >> 16]));
    const box = { min: [-3, -8], max: [5, 10] };
    const a = normalizeEmbedding(raw.slice().buffer, 3, 2);
    const b = normalizeEmbedding(bytes.slice().buffer, 3, 2, box);
    expect(b.centre).toEqual(a.centre);
    expect(b.scale).toBe(a.scale);
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(a.x[i]! - b.x[i]!)).toBeLessThan(1e-6);
      expect(Math.abs(a.y[i]! - b.y[i]!)).toBeLessThan(1e-6);
    }
    expect(() => normalizeEmbedding(bytes.slice(1).buffer, 3, 2, box)).toThrow(/bytes/);
  });

  it('decodes 24-bit positions piece by piece as they download, cells split between pieces included', () => {
    const n = 101;
    const box = { min: [-3, -8], max: [5, 10] };
    const bytes = Uint8Array.from({ length: 6 * n }, (_, i) => (i * 37 + 11) & 0xff);
    const whole = normalizeEmbedding(bytes.slice().buffer, n, 2, box);
    const seen: Array<[number, number]> = [];
    const decoder = quantisedPositionsDecoder(n, 2, box, (_x, _y, from, to) => seen.push([from, to]));
    // pieces of 1, 5, 7 … bytes: records (6 bytes) split at every offset
    for (let at = 0, k = 1; at < bytes.length; at += k, k = (k + 4) % 13 || 1)
      decoder.push(bytes.subarray(at, at + k));
    const pieces = decoder.finish();
    expect(pieces.x).toEqual(whole.x);
    expect(pieces.y).toEqual(whole.y);
    expect(pieces.centre).toEqual(whole.centre);
    expect(pieces.scale).toBe(whole.scale);
    // the cells each piece completed, contiguous from 0 to n
    expect(seen[0]![0]).toBe(0);
    for (let k = 1; k < seen.length; k++) expect(seen[k]![0]).toBe(seen[k - 1]![1]);
    expect(seen.at(-1)![1]).toBe(n);
    const short = quantisedPositionsDecoder(n, 2, box);
    short.push(bytes.subarray(1));
    expect(() => short.finish()).toThrow(/bytes, expected/);
    const long = quantisedPositionsDecoder(n, 2, box);
    expect(() => long.push(new Uint8Array(6 * n + 1))).toThrow(ArtifactFormatError);
  });

  it('reads the Float64 (offset, length) index', () => {
    const idx = parseGeneIndex(Float64Array.from([0, 12, 12, 0, 12, 20]).buffer, 3);
    expect(geneByteRange(idx, 2)).toEqual({ start: 12, length: 20 });
    expect(() => geneByteRange(idx, 3)).toThrow(/outside/);
    expect(() => parseGeneIndex(new ArrayBuffer(8), 3)).toThrow(/expected 48/);
  });
  it('decodes u16 categorical codes and checks them against the labels', () => {
    expect(Array.from(decodeCategorical(Uint16Array.from([0, 2, 1]).buffer, 'u16', 3, 3))).toEqual([0, 2, 1]);
    expect(() => decodeCategorical(Uint16Array.from([0, 3, 1]).buffer, 'u16', 3, 3)).toThrow(/no label/);
  });
  it('normalizes an embedding into [-1, 1] keeping the aspect ratio', () => {
    const e = normalizeEmbedding(Float32Array.from([0, 0, 10, 5, 20, 10]).buffer, 3, 2);
    expect(Math.max(...e.x)).toBeLessThanOrEqual(1);
    expect(Math.min(...e.x)).toBeGreaterThanOrEqual(-1);
    expect(e.x[2]! - e.x[0]!).toBeCloseTo(2 * (e.y[2]! - e.y[0]!), 5);
    expect(e.z).toBeNull();
  });
  it('parses genes.json with a case-insensitive lookup and validates the manifest', () => {
    const g = parseGenes({ ids: ['ENSG1', 'ENSG2'], symbols: ['CD3D', 'MS4A1'] });
    expect(g.lookup.get('MS4A1')).toBe(1);
    expect(g.lookup.get('ENSG1')).toBe(0);
    expect(() => parseManifest({ formatVersion: 2 })).toThrow(/not a valid explorer manifest/);
  });
  it('fingerprints manifests so a rewritten result never reuses cached bytes', () => {
    expect(fingerprint('{"nCells":4}')).toBe(fingerprint('{"nCells":4}'));
    expect(fingerprint('{"nCells":4}')).not.toBe(fingerprint('{"nCells":5}'));
  });
});
