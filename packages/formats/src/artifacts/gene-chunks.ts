/**
 * Format 1 of the gene-major expression chunks (expr/<layer>.bin + .idx): per gene the count of
 * non-zeros, their cell indices (u32) and their float32 values. layerBlocks also feeds format 2.
 */
import type { GeneBlocks } from '../cell-chunks';
import type { CountMatrix } from '../matrix';
import type { PositionalFile } from './sink';

/**
 * Where each gene's format-1 chunk (a u32 count, then u32 cells and f32 values) lies: the values
 * per gene, the .idx pairs (offset, length) and the total bytes (`offset`).
 */
function chunkLayout(m: CountMatrix): { perGene: Uint32Array; index: Float64Array; offset: number } {
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
  return { perGene, index, offset };
}

/** Gene-major chunks of a CSC-by-cell matrix: returns the .bin bytes and the .idx offsets. */
export function geneChunks(m: CountMatrix): { bin: Uint8Array; index: Float64Array } {
  const { perGene, index, offset } = chunkLayout(m);
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
export async function layerBlocks(
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
  const { perGene, index, offset } = chunkLayout(m);
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
