/**
 * Format 2 (docs/artifacts.md#format-2): the compact gene chunks (expr/<layer>.bin + .idx + .clen)
 * and the 24-bit quantised embedding positions.
 */
import { COLOUR_LEVELS, COMPACT_CHUNK_MAGIC, COMPACT_HEADER_BYTES } from '../artifacts-decode';
import type { GeneBlocks } from '../cell-chunks';
import type { CountMatrix } from '../matrix';
import { layerBlocks } from './gene-chunks';
import { type ArtifactSink, bytesOf, type PositionalFile } from './sink';

/** Whether typed arrays store numbers little-endian on this machine (as the chunks do). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bytes of the LEB128 varint of x (x < 2^32). */
const varintBytes = (x: number) =>
  x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5;

/**
 * Byte length of the compact chunk (format 2) of ascending `cells`, and of its cell varints; both
 * -1 when `cells` are not ascending.
 */
export function compactChunkLength(cells: ArrayLike<number>): { length: number; cellBytes: number } {
  const nnz = cells.length;
  let cellBytes = 0;
  let prev = -1;
  for (let k = 0; k < nnz; k++) {
    const c = cells[k]!;
    if (c <= prev) return { length: -1, cellBytes: -1 };
    cellBytes += varintBytes(c - prev - 1);
    prev = c;
  }
  const colourLength = COMPACT_HEADER_BYTES + cellBytes + (cellBytes & 1) + 2 * nnz;
  return { length: colourLength + ((4 - (colourLength & 3)) & 3) + 4 * nnz, cellBytes };
}

/**
 * Writes the compact chunk (docs/artifacts.md#format-2) of one gene at `at` of `out` (which holds
 * compactChunkLength(cells).length bytes from there, zeroed or not): header, cell varints, 16-bit
 * colour levels over [0, max], exact float32 values. `cells` ascending. Returns the colour prefix's length.
 */
export function encodeCompactChunk(
  cells: ArrayLike<number>,
  values: ArrayLike<number>,
  out: Uint8Array,
  at: number,
  cellBytes: number,
): number {
  const nnz = cells.length;
  const view = new DataView(out.buffer, out.byteOffset + at);
  let max = 0;
  let min = 0;
  for (let k = 0; k < nnz; k++) {
    const v = values[k]!;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  view.setUint32(0, COMPACT_CHUNK_MAGIC, true);
  view.setUint32(4, nnz, true);
  view.setFloat32(8, max, true);
  view.setUint32(12, cellBytes, true);
  let p = at + COMPACT_HEADER_BYTES;
  let prev = -1;
  for (let k = 0; k < nnz; k++) {
    const c = cells[k]!;
    if (c <= prev) throw new Error(`compact chunk: cells not ascending at ${k}`);
    let x = c - prev - 1;
    prev = c;
    while (x >= 0x80) {
      out[p++] = (x & 0x7f) | 0x80;
      x >>>= 7; // x < 2^32: the unsigned shift is x / 128 rounded down
    }
    out[p++] = x;
  }
  if (cellBytes & 1) out[p++] = 0;
  const scale = max > 0 ? COLOUR_LEVELS / Math.fround(max) : 0;
  const colourAt = p;
  const colourLength = colourAt + 2 * nnz - at;
  const valuesAt = colourAt + 2 * nnz + ((4 - (colourLength & 3)) & 3);
  if (LITTLE_ENDIAN && (out.byteOffset + at) % 4 === 0) {
    // typed-array views write the same little-endian bytes as the DataView calls below, without
    // a call per value (colourAt is even and valuesAt a multiple of 4 past `at`)
    const levels = new Uint16Array(out.buffer, out.byteOffset + colourAt, nnz);
    if (min === 0 && Math.round(max * scale) <= COLOUR_LEVELS) {
      // no value below 0 and v · scale ≤ max · scale: every level is in [0, COLOUR_LEVELS] already
      // (or NaN, stored as 0 either way), so the clamp below would change nothing
      for (let k = 0; k < nnz; k++) levels[k] = Math.round(values[k]! * scale);
    } else
      for (let k = 0; k < nnz; k++)
        levels[k] = Math.min(COLOUR_LEVELS, Math.max(0, Math.round(values[k]! * scale)));
    for (let q = colourAt + 2 * nnz; q < valuesAt; q++) out[q] = 0;
    const floats = new Float32Array(out.buffer, out.byteOffset + valuesAt, nnz);
    if (values instanceof Float32Array || values instanceof Float64Array) floats.set(values);
    else for (let k = 0; k < nnz; k++) floats[k] = values[k]!;
    return colourLength;
  }
  for (let k = 0; k < nnz; k++, p += 2)
    view.setUint16(p - at, Math.min(COLOUR_LEVELS, Math.max(0, Math.round(values[k]! * scale))), true);
  while ((p - at) & 3) out[p++] = 0;
  for (let k = 0; k < nnz; k++, p += 4) view.setFloat32(p - at, values[k]!, true);
  return colourLength;
}
/**
 * Compact gene chunks (format 2), written in order: `add` one gene's cells and values at a time,
 * `flush` writes what is buffered at the next offset of the file (or keeps it when there is none).
 * Gives the .idx offsets and the .clen colour-prefix lengths.
 */
export class CompactWriter {
  readonly index: Float64Array;
  readonly colourLengths: Uint32Array;
  private offset = 0;
  private buffer = new Uint8Array(0);
  private used = 0;
  private g = 0;
  private readonly parts: Uint8Array[] = [];
  constructor(
    nGenes: number,
    private readonly file: PositionalFile | undefined,
  ) {
    this.index = new Float64Array(2 * nGenes);
    this.colourLengths = new Uint32Array(nGenes);
  }
  add(cells: ArrayLike<number>, values: ArrayLike<number>): void {
    let sized = compactChunkLength(cells);
    if (sized.cellBytes < 0) {
      // a chunk lists its cells ascending (the delta coding needs it): sort a copy
      const order = Array.from({ length: cells.length }, (_, k) => k).sort((a, b) => cells[a]! - cells[b]!);
      cells = Float64Array.from(order, (k) => cells[k]!);
      values = Float64Array.from(order, (k) => values[k]!);
      sized = compactChunkLength(cells);
    }
    const { length, cellBytes } = sized;
    if (this.used + length > this.buffer.byteLength) {
      const grown = new Uint8Array(Math.max(2 * this.buffer.byteLength, this.used + length, 1 << 16));
      grown.set(this.buffer.subarray(0, this.used));
      this.buffer = grown;
    }
    this.colourLengths[this.g] = encodeCompactChunk(cells, values, this.buffer, this.used, cellBytes);
    this.index[2 * this.g] = this.offset + this.used;
    this.index[2 * this.g + 1] = length;
    this.used += length;
    this.g++;
  }
  async flush(): Promise<void> {
    const bytes = this.buffer.subarray(0, this.used);
    if (this.file) await this.file.write(bytes, this.offset);
    else this.parts.push(bytes.slice());
    this.offset += this.used;
    this.used = 0;
  }
  /** The whole .bin when there is no file. */
  bin(): Uint8Array {
    const out = new Uint8Array(this.offset);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/**
 * Compact (format 2) gene chunks of layers of one sparsity layout, each into its file (or kept in
 * memory when there is none): one pass over the cells per block of genes, as writeLayerChunks.
 */
export async function writeCompactLayerChunks(
  layers: CountMatrix[],
  files: (PositionalFile | undefined)[],
  blockNnz: number,
): Promise<CompactWriter[]> {
  const writers = layers.map((l, i) => new CompactWriter(l.nGenes, files[i]));
  await layerBlocks(layers, blockNnz, async (g0, g1, bytes, index, perGene) => {
    const start = index[2 * g0]!;
    for (let l = 0; l < layers.length; l++) {
      const b = bytes[l]!;
      const words = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
      const floats = new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
      for (let g = g0; g < g1; g++) {
        const base = (index[2 * g]! - start) / 4 + 1;
        const n = perGene[g]!;
        writers[l]!.add(words.subarray(base, base + n), floats.subarray(base + n, base + 2 * n));
      }
    }
    await Promise.all(writers.map((w) => w.flush()));
  });
  return writers;
}

/**
 * Compact gene chunks of layers with the same non-zeros per gene, each into its file (or kept in
 * memory): the layers' blocks of the same genes are read one after the other, so that views
 * computing one layer from the other's block can decode it once (stream/views.ts).
 */
export async function writeCompactGeneBlockLayers(
  layers: GeneBlocks[],
  files: (PositionalFile | undefined)[],
  blockNnz: number,
): Promise<CompactWriter[]> {
  const { nGenes, geneNnz } = layers[0]!;
  const writers = layers.map((l, i) => new CompactWriter(l.nGenes, files[i]));
  for (let g0 = 0; g0 < nGenes;) {
    let g1 = g0 + 1;
    let inBlock = geneNnz[g0]!;
    while (g1 < nGenes && inBlock + geneNnz[g1]! <= blockNnz) inBlock += geneNnz[g1++]!;
    for (let l = 0; l < layers.length; l++) {
      const block = layers[l]!.genes(g0, g1);
      for (let g = g0; g < g1; g++) {
        const s = block.indptr[g - g0]!;
        const e = block.indptr[g - g0 + 1]!;
        if (e - s !== geneNnz[g]) throw new Error(`gene ${g}: ${e - s} values read, ${geneNnz[g]} counted`);
        writers[l]!.add(block.indices.subarray(s, e), block.data.subarray(s, e));
      }
    }
    await Promise.all(writers.map((w) => w.flush()));
    g0 = g1;
  }
  return writers;
}

/** The .idx and .clen of a compact layer, and its .bin when it was kept in memory. */
export async function writeCompactFiles(
  sink: ArtifactSink,
  name: string,
  w: CompactWriter,
  withBin: boolean,
) {
  if (withBin) await sink.write(`expr/${name}.bin`, w.bin());
  await sink.write(`expr/${name}.idx`, bytesOf(w.index));
  await sink.write(`expr/${name}.clen`, bytesOf(w.colourLengths));
}

/**
 * Row-major positions as unsigned 24-bit integers within their bounding box per dimension
 * (docs/artifacts.md#format-2): error ≤ (max − min) / (2 · (2^24 − 1)) of that dimension.
 */
export function quantisePositions(
  values: Float32Array,
  dims: number,
): { bytes: Uint8Array; min: number[]; max: number[] } {
  const n = values.length / dims;
  const min = new Array<number>(dims).fill(Infinity);
  const max = new Array<number>(dims).fill(-Infinity);
  for (let i = 0; i < n; i++)
    for (let d = 0; d < dims; d++) {
      const v = values[i * dims + d]!;
      if (v < min[d]!) min[d] = v;
      if (v > max[d]!) max[d] = v;
    }
  for (let d = 0; d < dims; d++) if (!(max[d]! >= min[d]!)) min[d] = max[d] = 0; // empty or NaN
  const scale = min.map((lo, d) => (max[d]! > lo ? 0xffffff / (max[d]! - lo) : 0));
  const bytes = new Uint8Array(3 * values.length);
  for (let i = 0, at = 0; i < values.length; i++, at += 3) {
    const d = i % dims;
    const q = Math.min(0xffffff, Math.max(0, Math.round((values[i]! - min[d]!) * scale[d]!))) || 0;
    bytes[at] = q & 0xff;
    bytes[at + 1] = (q >> 8) & 0xff;
    bytes[at + 2] = q >> 16;
  }
  return { bytes, min, max };
}
