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

/** One gene chunk: [nnz:uint32][cellIdx: uint32 × nnz][value: float32 × nnz]. */
export function decodeGeneChunk(bytes: Uint8Array): GeneChunk {
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

/** Dense per-cell values of one gene (zeros where the gene is not detected). */
export function denseGeneValues(chunk: GeneChunk, nCells: number): Float32Array {
  const out = new Float32Array(nCells);
  for (let k = 0; k < chunk.cells.length; k++) out[chunk.cells[k]!] = chunk.values[k]!;
  return out;
}

/** embeddings/<name>.f32 as one Float32Array per dimension. */
export function decodeEmbedding(bytes: Uint8Array, dims: number): Float32Array[] {
  const v = decodeFloat32(bytes);
  const n = Math.floor(v.length / dims);
  const out = Array.from({ length: dims }, () => new Float32Array(n));
  for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) out[d]![i] = v[i * dims + d]!;
  return out;
}
