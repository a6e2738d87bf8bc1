import type { ValueKind } from '@cellcloud/contracts/files';
import { crc32 } from '../archive';
import type { CellChunks, GeneBlock, GeneBlocks } from '../cell-chunks';
import type { RandomAccessSource } from '../h5-io';
import type { CountMatrix } from '../matrix';
import { BLOCK, blockCount, blockWords, packedWords, unpackBlocks } from './bitpack';
import { parseFooter, type StoreFooter } from './footer';
import { checkHeader, decodeTrailer, HEADER_BYTES, storeCorrupt, TRAILER_BYTES } from './layout';
import {
  decodeCounts,
  decodeSegment,
  MODE_FLOAT32,
  SEGMENT_HEADER,
  segmentHeader,
  segmentWidths,
  type SegmentHeader,
} from './segment';

export interface CountStore {
  /** Cell-major chunks. */
  cells: CellChunks;
  /** The gene-major copy. */
  genes: GeneBlocks;
  geneIds: string[];
  geneSymbols: string[];
  barcodes: string[];
  sampleName?: string;
  nnz: number;
  /** Bytes of the file. */
  bytes: number;
  /** Bytes of the gene-major tiles (the rest of the file is the cell-major store and the index). */
  geneMajorBytes: number;
  /** 'counts' | 'nonIntegerCounts' | 'logNormalized' as ValueKind in contracts/files. */
  valueKind: ValueKind;
}

/** Reads `length` bytes at `position` into a fresh buffer with `spare` more zero bytes after them. */
function readAt(
  source: RandomAccessSource,
  position: number,
  length: number,
  what: string,
  spare = 4,
): Uint8Array {
  const buf = new Uint8Array(length + spare);
  if (position + length > source.size || source.readInto(buf.subarray(0, length), position) < length)
    throw storeCorrupt(`${what} lies past the end of the file`);
  return buf;
}

function decodeUintStream(b: Uint8Array, size: number, n: number, what: string): Uint32Array {
  if (size < 8) throw storeCorrupt(`${what} is cut short`);
  const dv = new DataView(b.buffer, b.byteOffset, 8);
  const count = dv.getUint32(0, true);
  const nWords = dv.getUint32(4, true);
  const wAt = 8 + ((blockCount(count) + 3) & ~3);
  if (count !== n || wAt + nWords * 4 !== size) throw storeCorrupt(`${what} does not match the footer`);
  const widths = b.subarray(8, 8 + blockCount(count));
  for (const w of widths) if (w > 32) throw storeCorrupt(`${what}: block width ${w} is above 32`);
  if (packedWords(widths, count) !== nWords)
    throw storeCorrupt(`${what}: the block widths do not match the words`);
  const words = new Uint32Array(nWords + 1);
  new Uint8Array(words.buffer).set(b.subarray(wAt, wAt + nWords * 4));
  const out = new Uint32Array(count);
  unpackBlocks(words, 0, widths, 0, widths.length, count, out, 0);
  return out;
}

/** What a reader keeps of one gene tile once it has been used: its gene offsets and block widths. */
interface TileIndex {
  c0: number;
  nCells: number;
  offset: number;
  h: SegmentHeader;
  /** Entry offsets of the genes inside the tile (nGenes + 1). */
  ptr: Uint32Array;
  indexWidths: Uint8Array;
  valueWidths: Uint8Array;
  /** Word offset of every 32nd block, index and value streams. */
  indexMarks: Float64Array;
  valueMarks: Float64Array;
}

const MARK = 32;

function marks(widths: Uint8Array, n: number): Float64Array {
  const out = new Float64Array(Math.floor(widths.length / MARK) + 1);
  let words = 0;
  for (let k = 0; k < widths.length; k++) {
    if (k % MARK === 0) out[k / MARK] = words;
    words += blockWords(Math.min(BLOCK, n - k * BLOCK), widths[k]!);
  }
  if (widths.length % MARK === 0) out[widths.length / MARK] = words;
  return out;
}

function wordAt(widths: Uint8Array, m: Float64Array, k: number, n: number): number {
  const base = Math.floor(k / MARK);
  let words = m[base]!;
  for (let kk = base * MARK; kk < k; kk++) words += blockWords(Math.min(BLOCK, n - kk * BLOCK), widths[kk]!);
  return words;
}

/**
 * Buffers the gene reads decode a tile into (its packed words, cell gaps and values), reused from
 * one tile and one read to the next: they live only within a `genes` call (synchronous), and a
 * tile's part of a block is small (a tile holds ≤ 16,384 cells). Parts above SCRATCH_MAX values
 * get their own buffers, so what stays allocated is bounded (≈ 3 × 4 MB per thread).
 */
const SCRATCH_MAX = 1 << 20;
const scratch = { bytes: new Uint8Array(0), idx: new Uint32Array(0), vals: new Float32Array(0) };

/** A byte buffer of at least `n` bytes, zero-filled only when new (the packed words' reader masks the spare word). */
function scratchBytes(n: number): Uint8Array {
  if (n > 4 * SCRATCH_MAX + 8) return new Uint8Array(n);
  if (scratch.bytes.length < n) scratch.bytes = new Uint8Array(Math.max(n, 2 * scratch.bytes.length));
  return scratch.bytes;
}

function scratchIdx(n: number): Uint32Array {
  if (n > SCRATCH_MAX) return new Uint32Array(n);
  if (scratch.idx.length < n) scratch.idx = new Uint32Array(Math.max(n, 2 * scratch.idx.length));
  return scratch.idx;
}

function scratchVals(n: number): Float32Array {
  if (n > SCRATCH_MAX) return new Float32Array(n);
  if (scratch.vals.length < n) scratch.vals = new Float32Array(Math.max(n, 2 * scratch.vals.length));
  return scratch.vals;
}

/**
 * One gene of a tile: its cell gaps idx[k0, k1) turned into cell indices (plus `c0`) and its
 * values from vals[v0] on, written from position p (all below 2³¹: int32 arithmetic throughout).
 * Returns the gene's last cell within the tile.
 */
function scatterGene(
  idx: Uint32Array,
  k0: number,
  k1: number,
  vals: Float32Array,
  v0: number,
  indices: Uint32Array,
  data: Float32Array,
  p: number,
  c0: number,
): number {
  let c = -1;
  let o = p | 0;
  let v = v0 | 0;
  const base = c0 | 0;
  for (let k = k0 | 0; k < (k1 | 0); k++) {
    c += idx[k]! + 1;
    indices[o] = base + c;
    data[o] = vals[v]!;
    o++;
    v++;
  }
  return c;
}

/**
 * Opens a count store (docs/formats/count-store.md) for synchronous positional reads. Holds the
 * footer (gene lists, chunk and tile offsets), the barcodes, the per-cell and per-gene non-zero
 * counts and, once a tile has served a gene read, that tile's gene offsets and block widths
 * (≈ 4 B per gene + 2 B per 128 non-zeros). Damaged or truncated files raise a FormatError
 * ('store.corrupt'), at open or at the read that meets the damage.
 */
export function openCountStore(source: RandomAccessSource): CountStore {
  const size = source.size;
  if (size < HEADER_BYTES + TRAILER_BYTES) throw storeCorrupt('the file is too short to be a count store');
  checkHeader(readAt(source, 0, HEADER_BYTES, 'the header', 0));
  const trailer = decodeTrailer(readAt(source, size - TRAILER_BYTES, TRAILER_BYTES, 'the trailer', 0), size);
  const footerBytes = readAt(source, trailer.footerOffset, trailer.footerBytes, 'the footer', 0);
  if (crc32(footerBytes) !== trailer.footerCrc) throw storeCorrupt('the footer checksum does not match');
  const f: StoreFooter = parseFooter(footerBytes, trailer.footerOffset);
  const { nGenes, nCells } = f;

  const stream = ([at, len]: [number, number], n: number, what: string) =>
    decodeUintStream(readAt(source, at, len, what), len, n, what);
  const cellNnz = stream(f.cellNnz, nCells, 'the per-cell counts');
  const geneNnz32 = stream(f.geneNnz, nGenes, 'the per-gene counts');
  const sum = (a: Uint32Array) => a.reduce((s, x) => s + x, 0);
  if (sum(cellNnz) !== f.nnz || sum(geneNnz32) !== f.nnz)
    throw storeCorrupt('the non-zero counts do not add up');
  const geneNnz = Float64Array.from(geneNnz32);

  const chunkStart = (i: number) => (i < f.chunks.length ? f.chunks[i]![0] : nCells);
  const barcodes: string[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0; i < f.chunks.length; i++) {
    const [, , , at, len] = f.chunks[i]!;
    const text = utf8.decode(readAt(source, at, len, `the barcodes of chunk ${i}`, 0));
    const list = text.split('\n');
    if (list.length !== chunkStart(i + 1) - chunkStart(i))
      throw storeCorrupt(`chunk ${i} has the wrong number of barcodes`);
    for (const b of list) barcodes.push(b);
  }

  const cells: CellChunks = {
    nCells,
    nGenes,
    nnz: f.nnz,
    chunkCount: f.chunks.length,
    chunkStart,
    chunk(i): CountMatrix {
      if (!(Number.isInteger(i) && i >= 0 && i < f.chunks.length)) throw new RangeError(`no chunk ${i}`);
      const [c0, at, len] = f.chunks[i]!;
      const what = `cell chunk ${i}`;
      const d = decodeSegment(readAt(source, at, len, what), len, nGenes, what);
      const n = chunkStart(i + 1) - c0;
      if (d.counts.length !== n) throw storeCorrupt(`${what} holds ${d.counts.length} cells, not ${n}`);
      for (let c = 0; c < n; c++)
        if (d.counts[c] !== cellNnz[c0 + c]) throw storeCorrupt(`${what} does not match the per-cell counts`);
      return { nGenes, nCells: n, indptr: d.indptr, indices: d.indices, data: d.data };
    },
  };

  const tiles: (TileIndex | undefined)[] = f.tiles.map(() => undefined);
  const tileIndex = (t: number): TileIndex => {
    const cached = tiles[t];
    if (cached) return cached;
    const [c0, c1, offset, len] = f.tiles[t]!;
    const what = `gene tile ${t}`;
    const h = segmentHeader(readAt(source, offset, SEGMENT_HEADER, what, 0), len, what);
    if (h.nMajor !== nGenes) throw storeCorrupt(`${what} has ${h.nMajor} genes, not ${nGenes}`);
    const head = readAt(source, offset, h.countWordsAt + h.countWords * 4, what);
    const widths = segmentWidths(head, h, what);
    const counts = decodeCounts(head, h, widths.count, what);
    const ptr = new Uint32Array(nGenes + 1);
    for (let g = 0; g < nGenes; g++) ptr[g + 1] = ptr[g]! + counts[g]!;
    const index: TileIndex = {
      c0,
      nCells: c1 - c0,
      offset,
      h,
      ptr,
      indexWidths: widths.index.slice(),
      valueWidths: widths.value.slice(),
      indexMarks: marks(widths.index, h.nnz),
      valueMarks: marks(widths.value, h.nnz),
    };
    tiles[t] = index;
    return index;
  };

  /** Blocks [k0, k1) of a tile's index stream (Uint32Array) or packed values (Float32Array, plus base). */
  const unpackTile = <A extends Uint32Array | Float32Array>(
    tx: TileIndex,
    out: A,
    k0: number,
    k1: number,
    what: string,
  ): A => {
    const value = out instanceof Float32Array;
    const widths = value ? tx.valueWidths : tx.indexWidths;
    const m = value ? tx.valueMarks : tx.indexMarks;
    const w0 = wordAt(widths, m, k0, tx.h.nnz);
    const w1 = wordAt(widths, m, k1, tx.h.nnz);
    const at = tx.offset + (value ? tx.h.valueWordsAt : tx.h.indexWordsAt) + w0 * 4;
    const len = (w1 - w0) * 4;
    const buf = scratchBytes(len + 4);
    if (at + len > source.size || source.readInto(buf.subarray(0, len), at) < len)
      throw storeCorrupt(`${what} lies past the end of the file`);
    const base = value ? tx.h.base : 0;
    unpackBlocks(new Uint32Array(buf.buffer, 0, w1 - w0 + 1), 0, widths, k0, k1, tx.h.nnz, out, 0, base);
    return out;
  };

  const genes: GeneBlocks = {
    nCells,
    nGenes,
    geneNnz,
    genes(g0, g1): GeneBlock {
      if (!(Number.isInteger(g0) && Number.isInteger(g1) && 0 <= g0 && g0 <= g1 && g1 <= nGenes))
        throw new RangeError(`genes [${g0}, ${g1}) outside [0, ${nGenes})`);
      const nG = g1 - g0;
      const indptr = new Float64Array(nG + 1);
      for (let j = 0; j < nG; j++) indptr[j + 1] = indptr[j]! + geneNnz[g0 + j]!;
      const total = indptr[nG]!;
      if (total > 0x7fffffff) throw new RangeError(`genes [${g0}, ${g1}) hold more than 2³¹ − 1 values`);
      const indices = new Uint32Array(total);
      const data = new Float32Array(total);
      const cursor = indptr.slice(0, nG);
      for (let t = 0; t < f.tiles.length; t++) {
        const tx = tileIndex(t);
        const s = tx.ptr[g0]!;
        const e = tx.ptr[g1]!;
        if (s === e) continue;
        const what = `gene tile ${t}`;
        const k0 = Math.floor(s / BLOCK);
        const k1 = Math.ceil(e / BLOCK);
        const skip = k0 * BLOCK;
        const span = Math.min(tx.h.nnz, k1 * BLOCK) - skip;
        const idx = unpackTile(tx, scratchIdx(span), k0, k1, what);
        let vals: Float32Array;
        if (tx.h.mode === MODE_FLOAT32) {
          const raw = readAt(source, tx.offset + tx.h.valueWordsAt + s * 4, (e - s) * 4, what, 0);
          vals = new Float32Array(raw.buffer, 0, e - s);
        } else vals = unpackTile(tx, scratchVals(span), k0, k1, what);
        const vOff = tx.h.mode === MODE_FLOAT32 ? s : skip;
        const ptr = tx.ptr;
        for (let j = 0; j < nG; j++) {
          const gs = ptr[g0 + j]!;
          const ge = ptr[g0 + j + 1]!;
          const p = cursor[j]!;
          if (p + (ge - gs) > indptr[j + 1]!)
            throw storeCorrupt(`${what} does not match the per-gene counts`);
          if (ge === gs) continue;
          const c = scatterGene(idx, gs - skip, ge - skip, vals, gs - vOff, indices, data, p, tx.c0);
          if (c >= tx.nCells) throw storeCorrupt(`${what}: cell ${c} is not below ${tx.nCells}`);
          cursor[j] = p + (ge - gs);
        }
      }
      for (let j = 0; j < nG; j++)
        if (cursor[j] !== indptr[j + 1])
          throw storeCorrupt(`gene ${g0 + j} does not match the per-gene counts`);
      return { g0, g1, nCells, indptr, indices, data };
    },
  };

  return {
    cells,
    genes,
    geneIds: f.geneIds,
    geneSymbols: f.geneSymbols,
    barcodes,
    ...(f.sampleName !== undefined ? { sampleName: f.sampleName } : {}),
    nnz: f.nnz,
    bytes: size,
    geneMajorBytes: f.tiles.reduce((s, t) => s + t[3], 0),
    valueKind: f.valueKind,
  };
}

/** A store held in memory as a random-access source (tests, small stores). */
export function bytesRandomAccess(bytes: Uint8Array): RandomAccessSource {
  return {
    size: bytes.length,
    readInto(into, position) {
      const n = Math.max(0, Math.min(into.length, bytes.length - position));
      into.set(bytes.subarray(position, position + n));
      return n;
    },
  };
}
