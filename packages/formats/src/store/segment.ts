import { BLOCK, blockCount, packBlocks, packedWords, unpackBlocks } from './bitpack';
import { storeCorrupt } from './layout';

/**
 * One compressed sparse segment (docs/formats/count-store.md#segments): `nMajor` rows (cells of a
 * cell chunk, genes of a gene tile), each a strictly increasing list of minor indices (genes of a
 * cell, cells of a gene) with a value each. Three bit-packed streams: the per-row counts, the
 * indices as gaps (index − previous − 1, the previous of a row's first being −1) and the values
 * as `value − base` when all are integers in [base, base + 2³²) with base < 2³², else raw float32.
 *
 * Layout (little-endian u32 words, then bytes, each part padded to 4 bytes):
 *   0 nMajor · 4 nnz · 8 mode (0 packed integers, 1 float32) · 12 base · 16 countWords ·
 *   20 indexWords · 24 valueWords · 28 reserved (0)
 *   32: count widths [ceil(nMajor/128)] · index widths [ceil(nnz/128)] · value widths
 *   [ceil(nnz/128), packed integers only] · count words · index words · value words
 */
export const SEGMENT_HEADER = 32;
export const MODE_PACKED = 0;
export const MODE_FLOAT32 = 1;
const U32_LIMIT = 4294967296;

const pad4 = (n: number) => (n + 3) & ~3;

export interface SegmentHeader {
  nMajor: number;
  nnz: number;
  mode: number;
  base: number;
  countWords: number;
  indexWords: number;
  valueWords: number;
  /** Byte offsets inside the segment. */
  countWidthsAt: number;
  indexWidthsAt: number;
  valueWidthsAt: number;
  countWordsAt: number;
  indexWordsAt: number;
  valueWordsAt: number;
  /** Bytes of the whole segment. */
  bytes: number;
}

/** What the encoder saw in the values (for the store's value kind). */
export interface ValueFacts {
  nonInteger: boolean;
  max: number;
}

/**
 * Encodes the rows `ptr[j] - ptr0 … ptr[j+1] - ptr0` of `minor` / `values` (j < nMajor). Throws
 * (through `invalid`) when a row's indices are not strictly increasing or not below `nMinor`.
 */
export function encodeSegment(
  nMajor: number,
  ptr: Float64Array,
  ptr0: number,
  minor: Uint32Array,
  values: Float32Array,
  nMinor: number,
  facts: ValueFacts,
  invalid: (detail: string) => Error,
): Uint8Array {
  const nnz = ptr[nMajor]! - ptr0;
  const counts = new Uint32Array(nMajor);
  const gaps = new Uint32Array(nnz);
  for (let j = 0; j < nMajor; j++) {
    const s = ptr[j]! - ptr0;
    const e = ptr[j + 1]! - ptr0;
    counts[j] = e - s;
    let prev = -1;
    for (let k = s; k < e; k++) {
      const g = minor[k]!;
      if (g <= prev) throw invalid(`indices of row ${j} are not strictly increasing`);
      gaps[k] = g - prev - 1;
      prev = g;
    }
    if (prev >= nMinor) throw invalid(`index ${prev} is not below ${nMinor}`);
  }
  let min = Infinity;
  let max = -Infinity;
  let integer = true;
  for (let k = 0; k < nnz; k++) {
    const v = values[k]!;
    if (v < min) min = v;
    if (v > max) max = v;
    if (integer && Math.floor(v) !== v) integer = false;
  }
  if (nnz > 0) {
    if (!integer || Number.isNaN(min)) facts.nonInteger = true;
    if (max > facts.max) facts.max = max;
  }
  // base is stored as a u32: packed values need min < 2³² as well as max − min < 2³²
  const packed = nnz === 0 || (integer && min >= 0 && min < U32_LIMIT && max - min < U32_LIMIT);
  const base = nnz === 0 || !packed ? 0 : min;
  const c = packBlocks(counts, nMajor);
  const ix = packBlocks(gaps, nnz);
  let v: { widths: Uint8Array; words: Uint32Array };
  if (packed) {
    const shifted = gaps; // reuse: the gaps are packed already
    for (let k = 0; k < nnz; k++) shifted[k] = values[k]! - base;
    v = packBlocks(shifted, nnz);
  } else {
    v = {
      widths: new Uint8Array(0),
      words: new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + nnz * 4)),
    };
  }
  const countWidthsAt = SEGMENT_HEADER;
  const indexWidthsAt = countWidthsAt + pad4(c.widths.length);
  const valueWidthsAt = indexWidthsAt + pad4(ix.widths.length);
  const countWordsAt = valueWidthsAt + pad4(v.widths.length);
  const indexWordsAt = countWordsAt + c.words.length * 4;
  const valueWordsAt = indexWordsAt + ix.words.length * 4;
  const bytes = valueWordsAt + v.words.length * 4;
  const out = new Uint8Array(bytes);
  const head = new Uint32Array(out.buffer, 0, 8);
  head.set([
    nMajor,
    nnz,
    packed ? MODE_PACKED : MODE_FLOAT32,
    base,
    c.words.length,
    ix.words.length,
    v.words.length,
    0,
  ]);
  out.set(c.widths, countWidthsAt);
  out.set(ix.widths, indexWidthsAt);
  out.set(v.widths, valueWidthsAt);
  new Uint32Array(out.buffer, countWordsAt, c.words.length).set(c.words);
  new Uint32Array(out.buffer, indexWordsAt, ix.words.length).set(ix.words);
  new Uint32Array(out.buffer, valueWordsAt, v.words.length).set(v.words);
  return out;
}

/** Reads and checks the header of a segment whose first bytes are `b` (at least 32). */
export function segmentHeader(b: Uint8Array, size: number, what: string): SegmentHeader {
  if (b.length < SEGMENT_HEADER || size < SEGMENT_HEADER) throw storeCorrupt(`${what} is cut short`);
  const dv = new DataView(b.buffer, b.byteOffset, SEGMENT_HEADER);
  const u = (i: number) => dv.getUint32(i * 4, true);
  const [nMajor, nnz, mode, base, countWords, indexWords, valueWords] = [0, 1, 2, 3, 4, 5, 6].map(
    u,
  ) as number[];
  if (mode !== MODE_PACKED && mode !== MODE_FLOAT32)
    throw storeCorrupt(`${what} has an unknown value mode ${mode}`);
  if (mode === MODE_FLOAT32 && valueWords !== nnz)
    throw storeCorrupt(`${what}: ${valueWords} float values for ${nnz}`);
  const countWidthsAt = SEGMENT_HEADER;
  const indexWidthsAt = countWidthsAt + pad4(blockCount(nMajor!));
  const valueWidthsAt = indexWidthsAt + pad4(blockCount(nnz!));
  const countWordsAt = valueWidthsAt + (mode === MODE_PACKED ? pad4(blockCount(nnz!)) : 0);
  const indexWordsAt = countWordsAt + countWords! * 4;
  const valueWordsAt = indexWordsAt + indexWords! * 4;
  const bytes = valueWordsAt + valueWords! * 4;
  if (bytes !== size) throw storeCorrupt(`${what} holds ${size} bytes where its header says ${bytes}`);
  return {
    nMajor: nMajor!,
    nnz: nnz!,
    mode: mode!,
    base: base!,
    countWords: countWords!,
    indexWords: indexWords!,
    valueWords: valueWords!,
    countWidthsAt,
    indexWidthsAt,
    valueWidthsAt,
    countWordsAt,
    indexWordsAt,
    valueWordsAt,
    bytes,
  };
}

/** Checks that each stream's widths are at most 32 and account for exactly its words. */
function checkStream(widths: Uint8Array, n: number, words: number, what: string): void {
  for (let k = 0; k < widths.length; k++)
    if (widths[k]! > 32) throw storeCorrupt(`${what}: block width ${widths[k]} is above 32`);
  if (packedWords(widths, n) !== words)
    throw storeCorrupt(`${what}: the block widths do not match the words`);
}

/** The three width arrays of a segment held whole in `b` (views), checked. */
export function segmentWidths(
  b: Uint8Array,
  h: SegmentHeader,
  what: string,
): { count: Uint8Array; index: Uint8Array; value: Uint8Array } {
  const nb = blockCount(h.nnz);
  const count = b.subarray(h.countWidthsAt, h.countWidthsAt + blockCount(h.nMajor));
  const index = b.subarray(h.indexWidthsAt, h.indexWidthsAt + nb);
  const value =
    h.mode === MODE_PACKED ? b.subarray(h.valueWidthsAt, h.valueWidthsAt + nb) : new Uint8Array(0);
  checkStream(count, h.nMajor, h.countWords, `${what} (counts)`);
  checkStream(index, h.nnz, h.indexWords, `${what} (indices)`);
  if (h.mode === MODE_PACKED) checkStream(value, h.nnz, h.valueWords, `${what} (values)`);
  return { count, index, value };
}

/** The per-row counts of a segment held whole in `b`, checked against its nnz. */
export function decodeCounts(
  b: Uint8Array,
  h: SegmentHeader,
  countWidths: Uint8Array,
  what: string,
): Uint32Array {
  const words = wordsOf(b, h.countWordsAt, h.countWords);
  const counts = new Uint32Array(h.nMajor);
  unpackBlocks(words, 0, countWidths, 0, countWidths.length, h.nMajor, counts, 0);
  let sum = 0;
  for (let j = 0; j < h.nMajor; j++) sum += counts[j]!;
  if (sum !== h.nnz) throw storeCorrupt(`${what}: the row counts add up to ${sum}, not ${h.nnz}`);
  return counts;
}

/**
 * A Uint32Array over `n` words of `b` from byte `at`, plus one spare readable word (copied when
 * `b` is not 4-aligned there or has no spare word).
 */
export function wordsOf(b: Uint8Array, at: number, n: number): Uint32Array {
  const start = b.byteOffset + at;
  if (start % 4 === 0 && at + (n + 1) * 4 <= b.length) return new Uint32Array(b.buffer, start, n + 1);
  const w = new Uint32Array(n + 1);
  new Uint8Array(w.buffer).set(b.subarray(at, at + n * 4));
  return w;
}

/** Blocks [k0, k1) of a stream of `n` values, unpacked; `words` starts at block k0's words. */
export function unpackRange(
  words: Uint32Array,
  widths: Uint8Array,
  k0: number,
  k1: number,
  n: number,
): Uint32Array {
  const out = new Uint32Array(Math.min(n, k1 * BLOCK) - k0 * BLOCK);
  unpackBlocks(words, 0, widths, k0, k1, n, out, 0);
  return out;
}

/**
 * Turns gaps into indices in place for the rows whose counts are `counts[j0, j1)`, the first row
 * starting at `gaps[k]`; checks each row's last index against `nMinor`. Returns the end position.
 */
export function undoGaps(
  gaps: Uint32Array,
  k: number,
  counts: ArrayLike<number>,
  j0: number,
  j1: number,
  nMinor: number,
  what: string,
): number {
  for (let j = j0; j < j1; j++) {
    const e = k + counts[j]!;
    let g = -1;
    for (; k < e; k++) {
      g += gaps[k]! + 1;
      gaps[k] = g;
    }
    if (g >= nMinor) throw storeCorrupt(`${what}: index ${g} is not below ${nMinor}`);
  }
  return k;
}

/**
 * Decodes the whole segment held in `buf[0, size)` (`buf` may run on: a spare word after the
 * segment saves a copy) as CSC rows: `indptr` from 0, indices, values. Checks every index against
 * `nMinor`.
 */
export function decodeSegment(
  buf: Uint8Array,
  size: number,
  nMinor: number,
  what: string,
): { counts: Uint32Array; indptr: Float64Array; indices: Uint32Array; data: Float32Array } {
  const h = segmentHeader(buf, size, what);
  const widths = segmentWidths(buf, h, what);
  const counts = decodeCounts(buf, h, widths.count, what);
  const nnz = h.nnz;
  const nb = widths.index.length;
  const indices = unpackRange(wordsOf(buf, h.indexWordsAt, h.indexWords), widths.index, 0, nb, nnz);
  undoGaps(indices, 0, counts, 0, h.nMajor, nMinor, what);
  const indptr = new Float64Array(h.nMajor + 1);
  for (let j = 0; j < h.nMajor; j++) indptr[j + 1] = indptr[j]! + counts[j]!;
  let data: Float32Array;
  if (h.mode === MODE_FLOAT32) {
    data = new Float32Array(nnz);
    new Uint8Array(data.buffer).set(buf.subarray(h.valueWordsAt, h.valueWordsAt + nnz * 4));
  } else {
    data = new Float32Array(nnz);
    unpackBlocks(wordsOf(buf, h.valueWordsAt, h.valueWords), 0, widths.value, 0, nb, nnz, data, 0, h.base);
  }
  return { counts, indptr, indices, data };
}
