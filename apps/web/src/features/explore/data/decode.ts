import {
  compactLayout,
  decodeCodes,
  decodeGeneChunk as decodeChunk,
  decodeGeneColours,
  decodeGeneIndex,
  isCompactChunk,
} from '@cellcloud/formats/artifacts-decode';

/**
 * Checked decoding of the explorer artifact layout (packages/contracts/src/artifacts.ts) on top of
 * the byte decoders of @cellcloud/formats: lengths and codes are validated so a corrupt result gives
 * a clear message instead of a garbled plot. Runs in the artifact Web Worker (no network, no DOM).
 */

export class ArtifactFormatError extends Error {
  override name = 'ArtifactFormatError';
}

/** The `.idx` file: Float64 pairs (byteOffset, byteLength) per gene. */
export interface GeneIndex {
  offsets: Float64Array;
  nGenes: number;
}

export function parseGeneIndex(buffer: ArrayBuffer, nGenes: number): GeneIndex {
  if (buffer.byteLength !== nGenes * 16) {
    throw new ArtifactFormatError(
      `expression index has ${buffer.byteLength} bytes, expected ${nGenes * 16} for ${nGenes} genes`,
    );
  }
  return { offsets: decodeGeneIndex(new Uint8Array(buffer)), nGenes };
}

/** expr/<layer>.clen (format 2): the byte length of each gene's colour prefix. */
export function parseColourLengths(buffer: ArrayBuffer, nGenes: number): Uint32Array {
  if (buffer.byteLength !== nGenes * 4) {
    throw new ArtifactFormatError(`colour lengths have ${buffer.byteLength} bytes, expected ${nGenes * 4} for ${nGenes} genes`);
  }
  return new Uint32Array(buffer);
}

/** Byte range [start, endInclusive] of one gene's chunk, as used in an HTTP Range header. */
export function geneByteRange(index: GeneIndex, gene: number): { start: number; length: number } {
  if (!Number.isInteger(gene) || gene < 0 || gene >= index.nGenes) {
    throw new ArtifactFormatError(`gene index ${gene} is outside 0..${index.nGenes - 1}`);
  }
  return { start: index.offsets[2 * gene]!, length: index.offsets[2 * gene + 1]! };
}

/** A decoded gene: dense per-cell values plus summary figures used by the colour scale. */
export interface DenseGene {
  values: Float32Array;
  max: number;
  nnz: number;
  /**
   * The cells with a stored value, ascending (every other cell is 0): lets the CPU renderer recolour
   * in O(non-zeros). null when the chunk does not list its cells in ascending order.
   */
  nz: Uint32Array | null;
}

/**
 * Decodes one gene chunk into a dense Float32Array of nCells values (zeros elsewhere): format 1
 * `[nnz:u32][cellIdx:u32×nnz][value:f32×nnz]`, a whole compact chunk (format 2: exact values) or
 * only its colour prefix (values within max / 131070 of the exact ones, exact max). An empty chunk
 * (length 0) is a gene expressed in no cell.
 */
export function decodeGeneChunk(chunk: ArrayBuffer | Uint8Array, nCells: number): DenseGene {
  const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
  const values = new Float32Array(nCells);
  if (bytes.byteLength === 0) return { values, max: 0, nnz: 0, nz: new Uint32Array(0) };
  let cells: Uint32Array;
  let v: Float32Array;
  let nnz: number;
  let max = 0;
  const compact = isCompactChunk(bytes);
  if (compact) {
    const l = compactLayout(bytes);
    nnz = l.nnz;
    if (bytes.byteLength !== l.length && bytes.byteLength !== l.colourLength) {
      throw new ArtifactFormatError(`gene chunk has ${bytes.byteLength} bytes, expected ${l.colourLength} or ${l.length} for ${nnz} non-zeros`);
    }
    try {
      ({ cells, values: v } = bytes.byteLength === l.length ? decodeChunk(bytes) : decodeGeneColours(bytes));
    } catch (e) {
      throw new ArtifactFormatError(e instanceof Error ? e.message : String(e));
    }
  } else {
    nnz = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
    if (bytes.byteLength !== 4 + 8 * nnz) {
      throw new ArtifactFormatError(`gene chunk has ${bytes.byteLength} bytes, expected ${4 + 8 * nnz} for ${nnz} non-zeros`);
    }
    ({ cells, values: v } = decodeChunk(bytes));
  }
  let prev = -1;
  let ascending = true;
  for (let i = 0; i < nnz; i += 1) {
    const cell = cells[i]!;
    if (cell >= nCells) throw new ArtifactFormatError(`gene chunk names cell ${cell} but the dataset has ${nCells} cells`);
    if (cell <= prev) ascending = false;
    prev = cell;
    const x = v[i]!;
    values[cell] = x;
    if (x > max) max = x;
  }
  // a copy of its own: the chunk's buffer (values too) need not stay alive with the cached gene
  return { values, max, nnz, nz: ascending ? (compact ? cells : cells.slice()) : null };
}

/** Categorical codes (u16 / u32 little-endian) → Uint32Array, checked against the label count. */
export function decodeCategorical(buffer: ArrayBuffer, dtype: 'u16' | 'u32', nCells: number, nLabels: number): Uint32Array {
  const width = dtype === 'u16' ? 2 : 4;
  if (buffer.byteLength !== nCells * width) {
    throw new ArtifactFormatError(`categorical column has ${buffer.byteLength} bytes, expected ${nCells * width}`);
  }
  const src = decodeCodes(new Uint8Array(buffer), dtype);
  const out = new Uint32Array(nCells);
  for (let i = 0; i < nCells; i += 1) {
    const c = src[i]!;
    if (c >= nLabels) throw new ArtifactFormatError(`categorical code ${c} at cell ${i} has no label (${nLabels} labels)`);
    out[i] = c;
  }
  return out;
}

export function decodeNumeric(buffer: ArrayBuffer, nCells: number): Float32Array {
  if (buffer.byteLength !== nCells * 4) {
    throw new ArtifactFormatError(`numeric column has ${buffer.byteLength} bytes, expected ${nCells * 4}`);
  }
  return new Float32Array(buffer);
}

/** An embedding split into per-axis arrays, scaled into [-1, 1] keeping the aspect ratio. */
export interface NormalizedEmbedding {
  x: Float32Array;
  y: Float32Array;
  z: Float32Array | null;
  /** Original coordinate = normalized · scale + centre (per axis), for axis labels. */
  centre: [number, number, number];
  scale: number;
}

/** Centre and scale of the [-1, 1] frame of a bounding box (2 % margin, aspect ratio kept). */
function frame(min: number[], max: number[], dims: number): { centre: [number, number, number]; scale: number } {
  const centre: [number, number, number] = [0, 0, 0];
  let half = 0;
  for (let d = 0; d < dims; d += 1) {
    centre[d] = (min[d]! + max[d]!) / 2;
    half = Math.max(half, (max[d]! - min[d]!) / 2);
  }
  return { centre, scale: half > 0 && Number.isFinite(half) ? half * 1.02 : 1 };
}

/** Decodes 24-bit positions (format 2) piece by piece, e.g. as they download. */
export interface PositionsDecoder {
  /** the next bytes of the file, in order (any length) */
  push(bytes: Uint8Array): void;
  /** the embedding, once every byte has been pushed */
  finish(): NormalizedEmbedding;
}

/**
 * normalizeEmbedding of 24-bit positions (format 2), one pass as the bytes arrive: the bounding box
 * is the manifest's, so q → (min + q · step − centre) / scale with no float32 copy in between. A
 * cell split between two pieces is kept until its last byte comes.
 */
export function quantisedPositionsDecoder(
  nCells: number,
  dims: 2 | 3,
  box: { min: number[]; max: number[] },
  /** called after each piece with the cells from..to−1 it completed (normalized x, y) */
  onCells?: (x: Float32Array, y: Float32Array, from: number, to: number) => void,
): PositionsDecoder {
  const { centre, scale } = frame(box.min, box.max, dims);
  const axes = Array.from({ length: dims }, () => new Float32Array(nCells));
  const mul = axes.map((_, d) => (box.max[d]! - box.min[d]!) / 0xffffff / scale);
  const add = axes.map((_, d) => (box.min[d]! - centre[d]!) / scale);
  const record = 3 * dims;
  const expected = nCells * record;
  const carry = new Uint8Array(record);
  let carried = 0;
  let received = 0;
  let cell = 0;
  /** decodes the whole records of `bytes` from `from` into cells cell… */
  const decode = (bytes: Uint8Array, from: number, records: number) => {
    for (let d = 0; d < dims; d += 1) {
      const a = axes[d]!;
      const m = mul[d]!;
      const o = add[d]!;
      for (let i = cell, end = cell + records, at = from + 3 * d; i < end; i += 1, at += record)
        a[i] = (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) * m + o;
    }
    cell += records;
  };
  return {
    push(bytes) {
      const from = cell;
      received += bytes.byteLength;
      if (received > expected) throw new ArtifactFormatError(`embedding has more than the ${expected} bytes expected for ${nCells} cells`);
      let at = 0;
      if (carried > 0) {
        at = Math.min(record - carried, bytes.byteLength);
        carry.set(bytes.subarray(0, at), carried);
        carried += at;
        if (carried < record) return;
        decode(carry, 0, 1);
        carried = 0;
      }
      const records = Math.floor((bytes.byteLength - at) / record);
      decode(bytes, at, records);
      at += records * record;
      carry.set(bytes.subarray(at), 0);
      carried = bytes.byteLength - at;
      if (cell > from) onCells?.(axes[0]!, axes[1]!, from, cell);
    },
    finish() {
      if (received !== expected) throw new ArtifactFormatError(`embedding has ${received} bytes, expected ${expected}`);
      return { x: axes[0]!, y: axes[1]!, z: axes[2] ?? null, centre, scale };
    },
  };
}

export function normalizeEmbedding(
  buffer: ArrayBuffer,
  nCells: number,
  dims: 2 | 3,
  quantised?: { min: number[]; max: number[] },
): NormalizedEmbedding {
  const width = quantised ? 3 : 4;
  if (buffer.byteLength !== nCells * dims * width) {
    throw new ArtifactFormatError(`embedding has ${buffer.byteLength} bytes, expected ${nCells * dims * width}`);
  }
  if (quantised) {
    const decoder = quantisedPositionsDecoder(nCells, dims, quantised);
    decoder.push(new Uint8Array(buffer));
    return decoder.finish();
  }
  const src = new Float32Array(buffer);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < nCells; i += 1) {
    for (let d = 0; d < dims; d += 1) {
      const v = src[i * dims + d]!;
      if (v < min[d]!) min[d] = v;
      if (v > max[d]!) max[d] = v;
    }
  }
  const { centre, scale } = frame(min, max, dims);
  const x = new Float32Array(nCells);
  const y = new Float32Array(nCells);
  const z = dims === 3 ? new Float32Array(nCells) : null;
  for (let i = 0; i < nCells; i += 1) {
    x[i] = (src[i * dims]! - centre[0]) / scale;
    y[i] = (src[i * dims + 1]! - centre[1]) / scale;
    if (z) z[i] = (src[i * dims + 2]! - centre[2]) / scale;
  }
  return { x, y, z, centre, scale };
}

/** genes.json → symbol list plus a case-insensitive lookup (symbol or id → gene index). */
export interface GeneCatalog {
  ids: string[];
  symbols: string[];
  lookup: Map<string, number>;
}

export function parseGenes(json: unknown): GeneCatalog {
  const g = json as { ids?: unknown; symbols?: unknown };
  if (!Array.isArray(g.ids) || !Array.isArray(g.symbols) || g.ids.length !== g.symbols.length) {
    throw new ArtifactFormatError('genes.json must hold { ids: string[], symbols: string[] } of equal length');
  }
  const ids = g.ids.map(String);
  const symbols = g.symbols.map(String);
  const lookup = new Map<string, number>();
  ids.forEach((id, i) => lookup.set(id.toUpperCase(), i));
  symbols.forEach((s, i) => lookup.set(s.toUpperCase(), i));
  return { ids, symbols, lookup };
}
