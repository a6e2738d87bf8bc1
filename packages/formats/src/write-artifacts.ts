import { type ArtifactManifest, artifactManifest, type DegRow } from '@cellcloud/contracts/artifacts';
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
    await Promise.all(bytes.map((b, l) => files[l]!.write(b, index[2 * g0]!)));
  }
  return index;
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
  const layers = await writeLayers(input, sink, bad);
  return {
    async finish(rest) {
      const embeddings: ArtifactManifest['embeddings'] = [];
      const embNames = stems(Object.keys(rest.embeddings ?? {}));
      for (const [name, e] of Object.entries(rest.embeddings ?? {})) {
        if (e.dims < 2 || e.dims > 3)
          throw bad(`embedding "${name}" has ${e.dims} dimensions; the explorer takes 2 or 3`);
        if (e.values.length !== nCells * e.dims)
          throw bad(`embedding "${name}" is not ${nCells} × ${e.dims}`);
        const file = `embeddings/${embNames.get(name)}.f32`;
        await sink.write(file, bytesOf(e.values));
        embeddings.push({ name, dims: e.dims, file });
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
        formatVersion: 1,
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

/** The gene-major expression layers (expr/<layer>.bin + .idx); layers of one sparsity layout in one pass. */
async function writeLayers(
  input: ArtifactInput,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.geneLayers) return writeGeneLayers(input, input.geneLayers, sink, bad);
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
    if (same && sink.open) same.push(l);
    else groups.push([l]);
  }
  const open = sink.open?.bind(sink);
  for (const group of groups) {
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
  return named.map(({ name }) => ({ name, data: `expr/${name}.bin`, index: `expr/${name}.idx` }));
}

/** writeLayers from gene blocks (ArtifactInput.geneLayers): one layer after the other. */
async function writeGeneLayers(
  input: ArtifactInput,
  geneLayers: NonNullable<ArtifactInput['geneLayers']>,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.layers.counts || input.layers.normalized) throw bad('both layers and gene-block layers given');
  const names = (['counts', 'normalized'] as const).filter((name) => geneLayers[name]);
  for (const name of names) {
    const m = geneLayers[name]!;
    if (m.nCells !== nCells || m.nGenes !== genes.ids.length)
      throw bad(`layer "${name}" is ${m.nGenes} × ${m.nCells}, expected ${genes.ids.length} × ${nCells}`);
    const file = sink.open ? await sink.open(`expr/${name}.bin`) : undefined;
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
  return names.map((name) => ({ name, data: `expr/${name}.bin`, index: `expr/${name}.idx` }));
}
