/**
 * Decoding the explorer artifacts (packages/contracts/src/artifacts.ts) from bytes. Pure functions,
 * no Node imports: the web app, the server and tests share them.
 */

/** Copy when the view is not aligned for the element size (typed arrays need aligned offsets). */
function aligned(bytes: Uint8Array, size: number): Uint8Array {
  return bytes.byteOffset % size === 0 ? bytes : bytes.slice();
}

export function decodeFloat32(bytes: Uint8Array): Float32Array {
  const b = aligned(bytes, 4);
  return new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
}

export function decodeCodes(bytes: Uint8Array, dtype: 'u16' | 'u32'): Uint16Array | Uint32Array {
  if (dtype === 'u16') {
    const b = aligned(bytes, 2);
    return new Uint16Array(b.buffer, b.byteOffset, b.byteLength >> 1);
  }
  const b = aligned(bytes, 4);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
}

/** Category label of every cell. */
export function decodeCategoricalColumn(bytes: Uint8Array, dtype: 'u16' | 'u32', labels: string[]): string[] {
  return Array.from(decodeCodes(bytes, dtype), (c) => labels[c] ?? '');
}

/** expr/<layer>.idx: (byteOffset, byteLength) per gene. */
export function decodeGeneIndex(bytes: Uint8Array): Float64Array {
  const b = aligned(bytes, 8);
  return new Float64Array(b.buffer, b.byteOffset, b.byteLength >> 3);
}

/** The byte range of gene `g` in expr/<layer>.bin (for an HTTP Range request: offset … offset+length-1). */
export function geneByteRange(index: Float64Array, g: number): { offset: number; length: number } {
  if (g < 0 || 2 * g + 1 >= index.length)
    throw new RangeError(`gene ${g} is outside the index of ${index.length / 2} genes`);
  return { offset: index[2 * g]!, length: index[2 * g + 1]! };
}

export interface GeneChunk {
  cells: Uint32Array;
  values: Float32Array;
}

/**
 * First word of a format-2 (compact) chunk. A format-1 chunk starts with its nnz and is exactly
 * 4 + 8·nnz bytes long, so no real format-1 chunk starts with this word (it would be 32 GiB).
 */
export const COMPACT_CHUNK_MAGIC = 0xffffffff;
/** Bytes of a compact chunk's header: magic, nnz, max (f32), bytes of the cell varints. */
export const COMPACT_HEADER_BYTES = 16;
/** Largest 16-bit colour level; a value v of a gene whose largest value is max → round(v / max · this). */
export const COLOUR_LEVELS = 65535;

/** Whether a chunk (or its colour prefix) is in the compact format 2. */
export function isCompactChunk(bytes: Uint8Array): boolean {
  if (bytes.byteLength < COMPACT_HEADER_BYTES) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const first = v.getUint32(0, true);
  return first === COMPACT_CHUNK_MAGIC && bytes.byteLength !== 4 + 8 * first;
}

/** A compact chunk's header and where its parts start (docs/artifacts.md#format-2). */
export function compactLayout(bytes: Uint8Array): {
  nnz: number;
  max: number;
  cellBytes: number;
  levelsAt: number;
  exactAt: number;
  colourLength: number;
  length: number;
} {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nnz = v.getUint32(4, true);
  const max = v.getFloat32(8, true);
  const cellBytes = v.getUint32(12, true);
  const levelsAt = COMPACT_HEADER_BYTES + cellBytes + (cellBytes & 1);
  const colourLength = levelsAt + 2 * nnz;
  const exactAt = colourLength + ((4 - (colourLength & 3)) & 3);
  return { nnz, max, cellBytes, levelsAt, exactAt, colourLength, length: exactAt + 4 * nnz };
}

/** The ascending cells of a compact chunk: LEB128 varints, the first cell then (gap − 1) for each next. */
function compactCells(bytes: Uint8Array, nnz: number, cellBytes: number): Uint32Array {
  const cells = new Uint32Array(nnz);
  let at = COMPACT_HEADER_BYTES;
  const end = at + cellBytes;
  let prev = -1;
  for (let k = 0; k < nnz; k++) {
    let x = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= end)
        throw new RangeError(`compact chunk: cell ${k} of ${nnz} runs past its ${cellBytes} bytes`);
      b = bytes[at++]!;
      x += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    prev += x + 1;
    cells[k] = prev;
  }
  return cells;
}

/**
 * One gene chunk, exact values, in either format: format 1 `[nnz:uint32][cellIdx: uint32 × nnz]
 * [value: float32 × nnz]`, or a whole compact chunk (format 2).
 */
export function decodeGeneChunk(bytes: Uint8Array): GeneChunk {
  if (isCompactChunk(bytes)) {
    const l = compactLayout(bytes);
    if (bytes.byteLength < l.length)
      throw new RangeError(`compact gene chunk holds ${bytes.byteLength} bytes, expected ${l.length}`);
    const b = aligned(bytes, 4);
    return {
      cells: compactCells(b, l.nnz, l.cellBytes),
      values: new Float32Array(b.buffer, b.byteOffset + l.exactAt, l.nnz),
    };
  }
  const b = aligned(bytes, 4);
  const words = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  const nnz = words[0] ?? 0;
  if (words.length < 1 + 2 * nnz)
    throw new RangeError(`gene chunk holds ${words.length * 4} bytes, expected ${4 + 8 * nnz}`);
  return {
    cells: new Uint32Array(b.buffer, b.byteOffset + 4, nnz),
    values: new Float32Array(b.buffer, b.byteOffset + 4 + 4 * nnz, nnz),
  };
}

/**
 * The colour values of a compact chunk from its colour prefix (or the whole chunk): the cells, each
 * value as level / 65535 · max (within max / 131070 of the exact value), and the exact max.
 */
export function decodeGeneColours(bytes: Uint8Array): GeneChunk & { max: number } {
  const l = compactLayout(bytes);
  if (bytes.byteLength < l.colourLength)
    throw new RangeError(`compact gene chunk holds ${bytes.byteLength} bytes, expected ≥ ${l.colourLength}`);
  const b = aligned(bytes, 2);
  const levels = new Uint16Array(b.buffer, b.byteOffset + l.levelsAt, l.nnz);
  const values = new Float32Array(l.nnz);
  const step = l.max / COLOUR_LEVELS;
  for (let k = 0; k < l.nnz; k++) values[k] = levels[k]! * step;
  return { cells: compactCells(b, l.nnz, l.cellBytes), values, max: l.max };
}

/** Dense per-cell values of one gene (zeros where the gene is not detected). */
export function denseGeneValues(chunk: GeneChunk, nCells: number): Float32Array {
  const out = new Float32Array(nCells);
  for (let k = 0; k < chunk.cells.length; k++) out[chunk.cells[k]!] = chunk.values[k]!;
  return out;
}

/**
 * embeddings/<name>.q24 (format 2) → row-major Float32 coordinates: unsigned 24-bit little-endian
 * integers q, coordinate = min[d] + q · (max[d] − min[d]) / (2^24 − 1).
 */
export function decodeQuantisedPositions(
  bytes: Uint8Array,
  dims: number,
  min: number[],
  max: number[],
): Float32Array {
  const n = Math.floor(bytes.byteLength / 3);
  const out = new Float32Array(n);
  const step = Array.from({ length: dims }, (_, d) => (max[d]! - min[d]!) / 0xffffff);
  for (let i = 0, at = 0; i < n; i++, at += 3) {
    const d = i % dims;
    out[i] = min[d]! + (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) * step[d]!;
  }
  return out;
}

/** embeddings/<name>.f32 (or .q24 with its manifest `quantised` box) as one Float32Array per dimension. */
export function decodeEmbedding(
  bytes: Uint8Array,
  dims: number,
  quantised?: { min: number[]; max: number[] },
): Float32Array[] {
  const v = quantised
    ? decodeQuantisedPositions(bytes, dims, quantised.min, quantised.max)
    : decodeFloat32(bytes);
  const n = Math.floor(v.length / dims);
  const out = Array.from({ length: dims }, () => new Float32Array(n));
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) out[d]![i] = v[i * dims + d]!;
  return out;
}
