import type { CountMatrix, CsrMatrix } from '@cellcloud/formats/matrix';

/**
 * Helpers over the canonical sparse layout (CSC by cell, see packages/formats/src/matrix.ts) and
 * its gene-major transpose. All functions allocate new arrays; inputs are never modified.
 */

/** Gene-major (CSR by gene) view: the values of gene g are data[indptr[g] .. indptr[g+1]) at cells indices[…]. */
export interface GeneMajor {
  nGenes: number;
  nCells: number;
  indptr: Float64Array;
  indices: Uint32Array;
  data: Float32Array;
}

/** Keeps the cells whose index is listed (in that order). */
export function subsetCells(m: CountMatrix, cells: ArrayLike<number>): CountMatrix {
  let nnz = 0;
  for (let i = 0; i < cells.length; i++) nnz += m.indptr[cells[i] + 1] - m.indptr[cells[i]];
  const indptr = new Float64Array(cells.length + 1);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let p = 0;
  for (let i = 0; i < cells.length; i++) {
    const s = m.indptr[cells[i]];
    const e = m.indptr[cells[i] + 1];
    indices.set(m.indices.subarray(s, e), p);
    data.set(m.data.subarray(s, e), p);
    p += e - s;
    indptr[i + 1] = p;
  }
  return { nGenes: m.nGenes, nCells: cells.length, indptr, indices, data };
}

/**
 * Keeps the genes flagged in `keep` (renumbering them in order); `m` itself when all are kept.
 * `shared`: the new arrays live in SharedArrayBuffers (worker threads read them without a copy).
 */
export function subsetGenes(m: CountMatrix, keep: Uint8Array, shared = false): CountMatrix {
  return subsetGenesAs(m, keep, shared, false) as CountMatrix;
}

/**
 * subsetGenes whose result holds its gene indices in 2 bytes when at most 65,536 genes are kept
 * (issue 33: the PCA's HVG submatrix, 6 B per value instead of 8); `m` itself when all are kept.
 */
export function subsetGenesCompact(m: CountMatrix, keep: Uint8Array, shared = false): CsrMatrix {
  return subsetGenesAs(m, keep, shared, true);
}

function subsetGenesAs(m: CountMatrix, keep: Uint8Array, shared: boolean, compact: boolean): CsrMatrix {
  if (keep.every((k) => k)) return m;
  const remap = new Int32Array(m.nGenes).fill(-1);
  let nGenes = 0;
  for (let g = 0; g < m.nGenes; g++) if (keep[g]) remap[g] = nGenes++;
  let nnz = 0;
  for (let k = 0; k < m.indices.length; k++) if (remap[m.indices[k]] >= 0) nnz++;
  const buffer = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const indptr = new Float64Array(buffer((m.nCells + 1) * 8));
  const indices = newGeneIndices(nnz, compact ? nGenes : 2 ** 32, buffer);
  const data = new Float32Array(buffer(nnz * 4));
  let p = 0;
  for (let c = 0; c < m.nCells; c++) {
    for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
      const r = remap[m.indices[k]];
      if (r >= 0) {
        indices[p] = r;
        data[p++] = m.data[k];
      }
    }
    indptr[c + 1] = p;
  }
  return { nGenes, nCells: m.nCells, indptr, indices, data };
}

/** Gene indices for `nnz` values of a `nGenes`-gene matrix: 2 bytes each up to 65,536 genes, else 4. */
export function newGeneIndices(
  nnz: number,
  nGenes: number,
  buffer: (bytes: number) => ArrayBufferLike = (b) => new ArrayBuffer(b),
): Uint32Array | Uint16Array {
  return nGenes <= 65_536 ? new Uint16Array(buffer(nnz * 2)) : new Uint32Array(buffer(nnz * 4));
}

/** Transposes cell-major to gene-major (counting sort: O(nnz)). Cells stay in increasing order. */
export function toGeneMajor(m: CountMatrix): GeneMajor {
  const nnz = m.indices.length;
  const indptr = new Float64Array(m.nGenes + 1);
  for (let k = 0; k < nnz; k++) indptr[m.indices[k] + 1]++;
  for (let g = 0; g < m.nGenes; g++) indptr[g + 1] += indptr[g];
  const pos = indptr.slice(0, m.nGenes);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  for (let c = 0; c < m.nCells; c++) {
    for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
      const g = m.indices[k];
      const p = pos[g]++;
      indices[p] = c;
      data[p] = m.data[k];
    }
  }
  return { nGenes: m.nGenes, nCells: m.nCells, indptr, indices, data };
}

/** Number of cells with a non-zero value, per gene. */
export function cellsPerGene(m: CountMatrix): Uint32Array {
  const out = new Uint32Array(m.nGenes);
  for (let k = 0; k < m.indices.length; k++) if (m.data[k] > 0) out[m.indices[k]]++;
  return out;
}

/** Concatenates matrices that share the same genes (cells of `b` after cells of `a`). */
export function concatCells(parts: CountMatrix[]): CountMatrix {
  const nGenes = parts[0]?.nGenes ?? 0;
  let nCells = 0;
  let nnz = 0;
  for (const m of parts) {
    nCells += m.nCells;
    nnz += m.indices.length;
  }
  const indptr = new Float64Array(nCells + 1);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let c0 = 0;
  let p0 = 0;
  for (const m of parts) {
    for (let c = 0; c < m.nCells; c++) indptr[c0 + c + 1] = p0 + m.indptr[c + 1];
    indices.set(m.indices, p0);
    data.set(m.data, p0);
    c0 += m.nCells;
    p0 += m.indices.length;
  }
  return { nGenes, nCells, indptr, indices, data };
}

/**
 * Keeps the listed cells (increasing indices) and, when `keepGenes` is given, the flagged genes
 * (renumbered in order) in one pass. `inPlace` compacts `m`'s own arrays and returns views on
 * them — for a matrix nobody else reads any more (the one-shot pipeline's merged input): no second
 * copy is ever allocated. Otherwise new arrays sized exactly.
 */
export function selectCellsAndGenes(
  m: CountMatrix,
  cells: Int32Array,
  keepGenes: Uint8Array | undefined,
  inPlace: boolean,
): CountMatrix {
  const remap = new Int32Array(m.nGenes);
  let nGenes = m.nGenes;
  if (keepGenes) {
    nGenes = 0;
    for (let g = 0; g < m.nGenes; g++) remap[g] = keepGenes[g] ? nGenes++ : -1;
  } else {
    for (let g = 0; g < m.nGenes; g++) remap[g] = g;
  }
  let indptr = m.indptr;
  let indices = m.indices;
  let data = m.data;
  if (!inPlace) {
    let nnz = 0;
    for (const c of cells)
      for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) if (remap[m.indices[k]] >= 0) nnz++;
    indptr = new Float64Array(cells.length + 1);
    // shared like the merged input's (the normalized values reuse them; markers' worker thread)
    indices = new Uint32Array(new SharedArrayBuffer(nnz * 4));
    data = new Float32Array(nnz);
  }
  // In place, writes never overtake reads (cells increase, entries are only dropped); the start of
  // cell c is read from the previous cell's saved end when indptr[c] may already be overwritten.
  let p = 0;
  let lastCell = -2;
  let lastEnd = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const s = c === lastCell + 1 ? lastEnd : m.indptr[c];
    const e = m.indptr[c + 1];
    for (let k = s; k < e; k++) {
      const g = remap[m.indices[k]];
      if (g >= 0) {
        indices[p] = g;
        data[p++] = m.data[k];
      }
    }
    lastCell = c;
    lastEnd = e;
    indptr[i + 1] = p;
  }
  indptr[0] = 0;
  if (!inPlace) return { nGenes, nCells: cells.length, indptr, indices, data };
  return {
    nGenes,
    nCells: cells.length,
    indptr: indptr.subarray(0, cells.length + 1),
    indices: indices.subarray(0, p),
    data: data.subarray(0, p),
  };
}
