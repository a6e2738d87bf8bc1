import { type ArtifactManifest, artifactManifest, type DegRow } from '@cellcloud/contracts/artifacts';
import { COLOUR_LEVELS, COMPACT_CHUNK_MAGIC, COMPACT_HEADER_BYTES } from './artifacts-decode';
import type { GeneBlocks } from './cell-chunks';
import { FormatError } from './errors';
import type { CellColumn, CountMatrix, GeneTable } from './matrix';

/** Writes the explorer artifacts (layout in packages/contracts/src/artifacts.ts) through a sink. */
export interface ArtifactSink {
  write(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Optional positional file writer: with it the gene-major expression chunks are written one
   * block of genes at a time instead of as one buffer (8 bytes per non-zero less at the peak).
   * The block buffer is reused for the next block once `write` has resolved.
   */
  open?(
    path: string,
  ): Promise<{ write(bytes: Uint8Array, position: number): Promise<void>; close(): Promise<void> }>;
}

export interface ArtifactInput {
  engineVersion: string;
  species: string;
  genes: GeneTable;
  nCells: number;
  layers: { counts?: CountMatrix; normalized?: CountMatrix };
  /**
   * The layers read from gene blocks instead (the out-of-core engine, issue 33): the same files,
   * byte for byte, written a block of genes at a time. Either `layers` or these, not both.
   */
  geneLayers?: { counts?: GeneBlocks; normalized?: GeneBlocks };
  /** Row-major nCells × dims, dims 2 or 3; names like umap, tsne, umap3D. */
  embeddings?: Record<string, { dims: number; values: Float32Array }>;
  obs?: Record<string, CellColumn>;
  /** Marker table rows per grouping (e.g. { cluster: [...] }). */
  markers?: Record<string, DegRow[]>;
  qc?: unknown;
  /** Path of the .h5ad download relative to the result directory, when one was written. */
  h5ad?: string;
  /**
   * 2 (default): compact positions and expression chunks (docs/artifacts.md#format-2); 1: the
   * earlier float32 files, still read by every decoder (kept for tests of old results).
   */
  formatVersion?: 1 | 2;
}

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const bytesOf = (a: Float32Array | Uint16Array | Uint32Array | Float64Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('explorer artifacts are little-endian; this platform is big-endian');

/** File-name-safe, unique stem for a key (the manifest keeps the original key). */
export function stems(keys: string[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const k of keys) {
    let stem = k.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
    let i = 1;
    const base = stem;
    while (used.has(stem.toLowerCase())) stem = `${base}_${i++}`;
    used.add(stem.toLowerCase());
    out.set(k, stem);
  }
  return out;
}

/** Order of category labels: numeric labels numerically, the rest alphabetically. */
export function categoryOrder(values: string[]): string[] {
  const cats = [...new Set(values)];
  if (cats.every((c) => c !== '' && !Number.isNaN(Number(c))))
    return cats.sort((a, b) => Number(a) - Number(b));
  return cats.sort((a, b) => a.localeCompare(b));
}

/**
 * One per-cell column in the explorer encoding: categorical → `obs/<stem>.u16|u32` codes into
 * `labels` (categoryOrder), numeric → `obs/<stem>.f32` with min/max. Also used for task outputs.
 */
export function encodeObsColumn(
  key: string,
  col: CellColumn,
  stem: string,
): { entry: ArtifactManifest['obs'][number]; bytes: Uint8Array } {
  const nCells = col.values.length;
  if (col.kind === 'categorical') {
    const labels = categoryOrder(col.values);
    const pos = new Map(labels.map((l, i) => [l, i]));
    const dtype = labels.length <= 65536 ? 'u16' : 'u32';
    const codes = dtype === 'u16' ? new Uint16Array(nCells) : new Uint32Array(nCells);
    col.values.forEach((v, i) => (codes[i] = pos.get(v)!));
    return {
      entry: { kind: 'categorical', key, file: `obs/${stem}.${dtype}`, dtype, labels },
      bytes: bytesOf(codes),
    };
  }
  let min = Infinity;
  let max = -Infinity;
  for (const v of col.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {
    entry: {
      kind: 'numeric',
      key,
      file: `obs/${stem}.f32`,
      min: Number.isFinite(min) ? min : 0,
      max: Number.isFinite(max) ? max : 0,
    },
    bytes: bytesOf(Float32Array.from(col.values)),
  };
}

/** Bytes of the LEB128 varint of x (x < 2^32). */
const varintBytes = (x: number) =>
  x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5;

/** Byte length of the compact chunk (format 2) of ascending `cells`, and of its cell varints. */
export function compactChunkLength(cells: ArrayLike<number>): { length: number; cellBytes: number } {
  const nnz = cells.length;
  let cellBytes = 0;
  let prev = -1;
  for (let k = 0; k < nnz; k++) {
    const c = cells[k]!;
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
  for (let k = 0; k < nnz; k++) if (values[k]! > max) max = values[k]!;
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
      x = Math.floor(x / 128);
    }
    out[p++] = x;
  }
  if (cellBytes & 1) out[p++] = 0;
  const scale = max > 0 ? COLOUR_LEVELS / Math.fround(max) : 0;
  for (let k = 0; k < nnz; k++, p += 2)
    view.setUint16(p - at, Math.min(COLOUR_LEVELS, Math.max(0, Math.round(values[k]! * scale))), true);
  const colourLength = p - at;
  while ((p - at) & 3) out[p++] = 0;
  for (let k = 0; k < nnz; k++, p += 4) view.setFloat32(p - at, values[k]!, true);
  return colourLength;
}

/**
 * Compact gene chunks (format 2), written in order: `add` one gene's cells and values at a time,
 * `flush` writes what is buffered at the next offset of the file (or keeps it when there is none).
 * Gives the .idx offsets and the .clen colour-prefix lengths.
 */
class CompactWriter {
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
    let ascending = true;
    for (let k = 1; k < cells.length && ascending; k++) ascending = cells[k]! > cells[k - 1]!;
    if (!ascending) {
      // a chunk lists its cells ascending (the delta coding needs it): sort a copy
      const order = Array.from({ length: cells.length }, (_, k) => k).sort((a, b) => cells[a]! - cells[b]!);
      cells = Float64Array.from(order, (k) => cells[k]!);
      values = Float64Array.from(order, (k) => values[k]!);
    }
    const { length, cellBytes } = compactChunkLength(cells);
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
 * Bytes of the gene-major chunks of genes [g0, g1) (see geneChunks) of each layer — layers with
 * one sparsity layout (counts and normalized values share indices and indptr) — from per-cell
 * cursors: one pass over the cells' indices fills every layer's block.
 */
function geneBlocks(
  layers: CountMatrix[],
  perGene: Uint32Array,
  index: Float64Array,
  g0: number,
  g1: number,
  cursor: Float64Array,
  buffers: ArrayBuffer[],
): Uint8Array[] {
  const m = layers[0]!;
  const start = index[2 * g0]!;
  const end = g1 < m.nGenes ? index[2 * g1]! : index[2 * (m.nGenes - 1)]! + index[2 * (m.nGenes - 1) + 1]!;
  // the layers' block buffers are reused from block to block (every word is written below)
  const words = buffers.map((b) => new Uint32Array(b, 0, (end - start) / 4));
  const floats = words.map((w) => new Float32Array(w.buffer, 0, w.length));
  const data = layers.map((l) => l.data);
  // per gene of the block: the next cell-index word; its value sits `count` words further
  const next = new Int32Array(g1 - g0);
  const count = perGene.subarray(g0, g1);
  for (let g = g0; g < g1; g++) {
    const base = (index[2 * g]! - start) / 4;
    for (const w of words) w[base] = perGene[g]!;
    next[g - g0] = base + 1;
  }
  const { indices, indptr } = m;
  const nLayers = layers.length;
  for (let j = 0; j < m.nCells; j++) {
    const stop = indptr[j + 1]!;
    let k = cursor[j]!;
    for (; k < stop && indices[k]! < g1; k++) {
      const g = indices[k]! - g0;
      const at = next[g]!++;
      const value = at + count[g]!;
      for (let l = 0; l < nLayers; l++) {
        words[l]![at] = j;
        floats[l]![value] = data[l]![k]!;
      }
    }
    cursor[j] = k;
  }
  return words.map((w) => new Uint8Array(w.buffer, 0, w.byteLength));
}

type PositionalFile = { write(bytes: Uint8Array, position: number): Promise<void> };

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

/** Writes the gene-major chunks block by block into a positional file; returns the .idx offsets. */
export async function writeGeneChunks(
  m: CountMatrix,
  file: PositionalFile,
  blockNnz = 1 << 22,
): Promise<Float64Array> {
  return writeLayerChunks([m], [file], blockNnz);
}

/**
 * writeGeneChunks for layers of one sparsity layout (the same `indices` and `indptr` arrays), each
 * into its file, in one pass: the .idx offsets are the same for all.
 */
export async function writeLayerChunks(
  layers: CountMatrix[],
  files: PositionalFile[],
  blockNnz = 1 << 22,
): Promise<Float64Array> {
  return layerBlocks(layers, blockNnz, (g0, _g1, bytes, index) =>
    Promise.all(bytes.map((b, l) => files[l]!.write(b, index[2 * g0]!))).then(() => undefined),
  );
}

/**
 * The format-1 gene-major blocks of layers of one sparsity layout, one block of genes [g0, g1) at a
 * time, handed to `onBlock` with the format-1 offsets (which it returns). The block buffers are
 * reused once `onBlock` has resolved.
 */
async function layerBlocks(
  layers: CountMatrix[],
  blockNnz: number,
  onBlock: (
    g0: number,
    g1: number,
    bytes: Uint8Array[],
    index: Float64Array,
    perGene: Uint32Array,
  ) => Promise<void>,
): Promise<Float64Array> {
  const m = layers[0]!;
  if (layers.some((l) => l.indices !== m.indices || l.indptr !== m.indptr))
    throw new Error('writeLayerChunks: the layers do not share one sparsity layout');
  const nnz = m.indptr[m.nCells]!;
  const perGene = new Uint32Array(m.nGenes);
  for (let k = 0; k < nnz; k++) perGene[m.indices[k]!]!++;
  const index = new Float64Array(2 * m.nGenes);
  let offset = 0;
  for (let g = 0; g < m.nGenes; g++) {
    const len = 4 + 8 * perGene[g]!;
    index[2 * g] = offset;
    index[2 * g + 1] = len;
    offset += len;
  }
  const cursor = m.indptr.slice(0, m.nCells);
  const blocks: [number, number][] = [];
  let largest = 0;
  for (let g0 = 0; g0 < m.nGenes;) {
    let g1 = g0 + 1;
    let inBlock = perGene[g0]!;
    while (g1 < m.nGenes && inBlock + perGene[g1]! <= blockNnz) inBlock += perGene[g1++]!;
    blocks.push([g0, g1]);
    largest = Math.max(largest, (g1 < m.nGenes ? index[2 * g1]! : offset) - index[2 * g0]!);
    g0 = g1;
  }
  const buffers = layers.map(() => new ArrayBuffer(largest));
  for (const [g0, g1] of blocks) {
    const bytes = geneBlocks(layers, perGene, index, g0, g1, cursor, buffers);
    await onBlock(g0, g1, bytes, index, perGene);
  }
  return index;
}

/**
 * Compact (format 2) gene chunks of layers of one sparsity layout, each into its file (or kept in
 * memory when there is none): one pass over the cells per block of genes, as writeLayerChunks.
 */
async function writeCompactLayerChunks(
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

/** Compact (format 2) gene chunks from gene blocks, a block of at most `blockNnz` values at a time. */
async function writeCompactGeneBlockChunks(
  genes: GeneBlocks,
  file: PositionalFile | undefined,
  blockNnz: number,
): Promise<CompactWriter> {
  const { nGenes, geneNnz } = genes;
  const writer = new CompactWriter(nGenes, file);
  for (let g0 = 0; g0 < nGenes;) {
    let g1 = g0 + 1;
    let inBlock = geneNnz[g0]!;
    while (g1 < nGenes && inBlock + geneNnz[g1]! <= blockNnz) inBlock += geneNnz[g1++]!;
    const block = genes.genes(g0, g1);
    for (let g = g0; g < g1; g++) {
      const s = block.indptr[g - g0]!;
      const e = block.indptr[g - g0 + 1]!;
      if (e - s !== geneNnz[g]) throw new Error(`gene ${g}: ${e - s} values read, ${geneNnz[g]} counted`);
      writer.add(block.indices.subarray(s, e), block.data.subarray(s, e));
    }
    await writer.flush();
    g0 = g1;
  }
  return writer;
}

/** Gene-major chunks of a CSC-by-cell matrix: returns the .bin bytes and the .idx offsets. */
export function geneChunks(m: CountMatrix): { bin: Uint8Array; index: Float64Array } {
  const nnz = m.indptr[m.nCells]!;
  const perGene = new Uint32Array(m.nGenes);
  for (let k = 0; k < nnz; k++) perGene[m.indices[k]!]!++;
  const index = new Float64Array(2 * m.nGenes);
  let offset = 0;
  for (let g = 0; g < m.nGenes; g++) {
    const len = 4 + 8 * perGene[g]!;
    index[2 * g] = offset;
    index[2 * g + 1] = len;
    offset += len;
  }
  const words = new Uint32Array(offset / 4);
  const floats = new Float32Array(words.buffer);
  const fill = new Uint32Array(m.nGenes);
  for (let g = 0; g < m.nGenes; g++) words[index[2 * g]! / 4] = perGene[g]!;
  for (let j = 0; j < m.nCells; j++) {
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++) {
      const g = m.indices[k]!;
      const base = index[2 * g]! / 4;
      const at = fill[g]!++;
      words[base + 1 + at] = j;
      floats[base + 1 + perGene[g]! + at] = m.data[k]!;
    }
  }
  return { bin: new Uint8Array(words.buffer), index };
}

/**
 * The gene-major chunks (the .bin of geneChunks) of gene blocks, read and written a block of at
 * most `blockNnz` values at a time into a positional file, or assembled whole when there is none.
 * Returns the .idx offsets (and the bytes when assembled).
 */
export async function writeGeneBlockChunks(
  genes: GeneBlocks,
  file: PositionalFile | undefined,
  blockNnz = 1 << 22,
): Promise<{ index: Float64Array; bin?: Uint8Array }> {
  const { nGenes, geneNnz } = genes;
  const index = new Float64Array(2 * nGenes);
  let offset = 0;
  for (let g = 0; g < nGenes; g++) {
    const len = 4 + 8 * geneNnz[g]!;
    index[2 * g] = offset;
    index[2 * g + 1] = len;
    offset += len;
  }
  const whole = file ? undefined : new ArrayBuffer(offset);
  let buffer = whole ?? new ArrayBuffer(0);
  for (let g0 = 0; g0 < nGenes;) {
    let g1 = g0 + 1;
    let inBlock = geneNnz[g0]!;
    while (g1 < nGenes && inBlock + geneNnz[g1]! <= blockNnz) inBlock += geneNnz[g1++]!;
    const start = whole ? 0 : index[2 * g0]!;
    const end = g1 < nGenes ? index[2 * g1]! : offset;
    if (buffer.byteLength < end - start) buffer = new ArrayBuffer(end - start);
    const words = new Uint32Array(buffer, 0, (end - start) / 4);
    const floats = new Float32Array(buffer, 0, words.length);
    const block = genes.genes(g0, g1);
    for (let g = g0; g < g1; g++) {
      const s = block.indptr[g - g0]!;
      const e = block.indptr[g - g0 + 1]!;
      if (e - s !== geneNnz[g]) throw new Error(`gene ${g}: ${e - s} values read, ${geneNnz[g]} counted`);
      const base = (index[2 * g]! - start) / 4;
      words[base] = e - s;
      words.set(block.indices.subarray(s, e), base + 1);
      floats.set(block.data.subarray(s, e), base + 1 + e - s);
    }
    if (file) await file.write(new Uint8Array(buffer, 0, end - start), start);
    g0 = g1;
  }
  return whole ? { index, bin: new Uint8Array(whole) } : { index };
}

export async function writeArtifacts(input: ArtifactInput, sink: ArtifactSink): Promise<ArtifactManifest> {
  const artifacts = await beginArtifacts(input, sink);
  return artifacts.finish(input);
}

/** What `ArtifactsInProgress.finish` writes: per-cell columns, embeddings, markers, QC. */
export type ArtifactRest = Pick<ArtifactInput, 'obs' | 'embeddings' | 'markers' | 'qc'>;

/** Explorer artifacts whose genes and expression layers are written. */
export interface ArtifactsInProgress {
  /** Writes the per-cell columns, embeddings, markers and QC, then the manifest. */
  finish(rest: ArtifactRest): Promise<ArtifactManifest>;
}

/**
 * writeArtifacts in two parts: the genes and the gene-major expression layers (the large part)
 * now — e.g. while the embeddings compute — and the rest with `finish`. The input's obs,
 * embeddings, markers and qc are not read here.
 */
export async function beginArtifacts(input: ArtifactInput, sink: ArtifactSink): Promise<ArtifactsInProgress> {
  const { nCells, genes } = input;
  const bad = (detail: string) =>
    new FormatError('write.invalid_input', { file: 'explorer artifacts', detail });
  if (genes.ids.length !== genes.symbols.length) throw bad('gene ids and symbols differ in length');
  await sink.write('genes.json', json({ ids: genes.ids, symbols: genes.symbols }));
  const version = input.formatVersion ?? 2;
  const layers = await writeLayers(input, sink, bad, version);
  return {
    async finish(rest) {
      const embeddings: ArtifactManifest['embeddings'] = [];
      const embNames = stems(Object.keys(rest.embeddings ?? {}));
      for (const [name, e] of Object.entries(rest.embeddings ?? {})) {
        if (e.dims < 2 || e.dims > 3)
          throw bad(`embedding "${name}" has ${e.dims} dimensions; the explorer takes 2 or 3`);
        if (e.values.length !== nCells * e.dims)
          throw bad(`embedding "${name}" is not ${nCells} × ${e.dims}`);
        if (version === 1) {
          const file = `embeddings/${embNames.get(name)}.f32`;
          await sink.write(file, bytesOf(e.values));
          embeddings.push({ name, dims: e.dims, file });
        } else {
          const file = `embeddings/${embNames.get(name)}.q24`;
          const { bytes, min, max } = quantisePositions(e.values, e.dims);
          await sink.write(file, bytes);
          embeddings.push({ name, dims: e.dims, file, quantised: { bits: 24, min, max } });
        }
      }
      const obs: ArtifactManifest['obs'] = [];
      const obsNames = stems(Object.keys(rest.obs ?? {}));
      for (const [key, col] of Object.entries(rest.obs ?? {})) {
        if (col.values.length !== nCells)
          throw bad(`obs column "${key}" has ${col.values.length} values for ${nCells} cells`);
        const { entry, bytes } = encodeObsColumn(key, col, obsNames.get(key)!);
        await sink.write(entry.file, bytes);
        obs.push(entry);
      }
      const markers: ArtifactManifest['markers'] = [];
      const markerNames = stems(Object.keys(rest.markers ?? {}));
      for (const [groupBy, rows] of Object.entries(rest.markers ?? {})) {
        const file = `markers/${markerNames.get(groupBy)}.json`;
        await sink.write(file, json(rows));
        markers.push({ groupBy, file });
      }
      if (rest.qc !== undefined) await sink.write('qc.json', json(rest.qc));
      const manifest = artifactManifest.parse({
        formatVersion: version,
        engineVersion: input.engineVersion,
        nCells,
        nGenes: genes.ids.length,
        species: input.species,
        embeddings,
        obs,
        genes: { file: 'genes.json', count: genes.ids.length },
        layers,
        markers,
        ...(rest.qc !== undefined ? { qc: 'qc.json' } : {}),
        ...(input.h5ad ? { h5ad: input.h5ad } : {}),
      });
      await sink.write('manifest.json', json(manifest));
      return manifest;
    },
  };
}

/**
 * The gene-major expression layers (expr/<layer>.bin + .idx, and .clen in format 2); layers of one
 * sparsity layout in one pass.
 */
async function writeLayers(
  input: ArtifactInput,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
  version: 1 | 2,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.geneLayers) return writeGeneLayers(input, input.geneLayers, sink, bad, version);
  const named = (['counts', 'normalized'] as const).flatMap((name) => {
    const m = input.layers[name];
    if (!m) return [];
    if (m.nCells !== nCells || m.nGenes !== genes.ids.length)
      throw bad(`layer "${name}" is ${m.nGenes} × ${m.nCells}, expected ${genes.ids.length} × ${nCells}`);
    return [{ name, m }];
  });
  const groups: (typeof named)[] = [];
  for (const l of named) {
    const same = groups.find((g) => g[0]!.m.indices === l.m.indices && g[0]!.m.indptr === l.m.indptr);
    if (same && (sink.open || version === 2)) same.push(l);
    else groups.push([l]);
  }
  const open = sink.open?.bind(sink);
  for (const group of groups) {
    if (version === 2) {
      const files = open ? await Promise.all(group.map((l) => open(`expr/${l.name}.bin`))) : [];
      let writers: CompactWriter[];
      try {
        writers = await writeCompactLayerChunks(
          group.map((l) => l.m),
          group.map((_, i) => files[i]),
          Math.floor((1 << 22) / group.length),
        );
      } finally {
        await Promise.all(files.map((f) => f.close()));
      }
      for (const [i, { name }] of group.entries()) await writeCompactFiles(sink, name, writers[i]!, !open);
      continue;
    }
    let index: Float64Array;
    if (open) {
      const files = await Promise.all(group.map((l) => open(`expr/${l.name}.bin`)));
      try {
        // the blocks of all the group's layers are in memory at once: ~32 MB in all
        index = await writeLayerChunks(
          group.map((l) => l.m),
          files,
          Math.floor((1 << 22) / group.length),
        );
      } finally {
        await Promise.all(files.map((f) => f.close()));
      }
    } else {
      const chunks = geneChunks(group[0]!.m);
      await sink.write(`expr/${group[0]!.name}.bin`, chunks.bin);
      index = chunks.index;
    }
    for (const { name } of group) await sink.write(`expr/${name}.idx`, bytesOf(index));
  }
  return named.map(({ name, m }) => layerEntry(name, version, m.indptr[m.nCells]!));
}

const layerEntry = (
  name: 'counts' | 'normalized',
  version: 1 | 2,
  nnz: number,
): ArtifactManifest['layers'][number] => ({
  name,
  data: `expr/${name}.bin`,
  index: `expr/${name}.idx`,
  ...(version === 2 ? { compact: { colourLengths: `expr/${name}.clen` }, nnz } : {}),
});

/** The .idx and .clen of a compact layer, and its .bin when it was kept in memory. */
async function writeCompactFiles(sink: ArtifactSink, name: string, w: CompactWriter, withBin: boolean) {
  if (withBin) await sink.write(`expr/${name}.bin`, w.bin());
  await sink.write(`expr/${name}.idx`, bytesOf(w.index));
  await sink.write(`expr/${name}.clen`, bytesOf(w.colourLengths));
}

/** writeLayers from gene blocks (ArtifactInput.geneLayers): one layer after the other. */
async function writeGeneLayers(
  input: ArtifactInput,
  geneLayers: NonNullable<ArtifactInput['geneLayers']>,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
  version: 1 | 2,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.layers.counts || input.layers.normalized) throw bad('both layers and gene-block layers given');
  const names = (['counts', 'normalized'] as const).filter((name) => geneLayers[name]);
  for (const name of names) {
    const m = geneLayers[name]!;
    if (m.nCells !== nCells || m.nGenes !== genes.ids.length)
      throw bad(`layer "${name}" is ${m.nGenes} × ${m.nCells}, expected ${genes.ids.length} × ${nCells}`);
    const file = sink.open ? await sink.open(`expr/${name}.bin`) : undefined;
    if (version === 2) {
      let w: CompactWriter;
      try {
        // blocks of 2M values: the block read and its compact bytes (≤ 11 B per value) ≈ 40 MB
        w = await writeCompactGeneBlockChunks(m, file, 1 << 21);
      } finally {
        await file?.close();
      }
      await writeCompactFiles(sink, name, w, !file);
      continue;
    }
    let written: { index: Float64Array; bin?: Uint8Array };
    try {
      // blocks of 2M values: the block read (with the views it goes through) and the bytes written ≈ 64 MB
      written = await writeGeneBlockChunks(m, file, 1 << 21);
    } finally {
      await file?.close();
    }
    if (written.bin) await sink.write(`expr/${name}.bin`, written.bin);
    await sink.write(`expr/${name}.idx`, bytesOf(written.index));
  }
  return names.map((name) =>
    layerEntry(
      name,
      version,
      geneLayers[name]!.geneNnz.reduce((a, b) => a + b, 0),
    ),
  );
}
