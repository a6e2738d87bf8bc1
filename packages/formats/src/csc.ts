import { FormatError } from './errors';
import type { CountMatrix } from './matrix';

/**
 * Build the canonical CSC-by-cell matrix from coordinate triplets (0-based gene, cell, value).
 * Fast path when the triplets are already sorted by (cell, gene) as 10x writes them; otherwise a
 * counting sort by cell then a sort of genes inside each cell. Duplicate (gene, cell) pairs are
 * summed, as scipy does when converting COO to CSC. Takes ownership of `gene` and `value` (the
 * sorted fast path uses them as the result without copying).
 */
export function tripletsToCsc(
  gene: Uint32Array,
  cell: Uint32Array,
  value: Float32Array,
  nGenes: number,
  nCells: number,
): { matrix: CountMatrix; duplicates: number } {
  const n = value.length;
  const indptr = new Float64Array(nCells + 1);
  let sorted = true;
  for (let k = 0; k < n; k++) {
    indptr[cell[k]! + 1]!++;
    if (k > 0 && sorted) {
      const pc = cell[k - 1]!;
      const c = cell[k]!;
      if (c < pc || (c === pc && gene[k]! <= gene[k - 1]!)) sorted = false;
    }
  }
  for (let j = 0; j < nCells; j++) indptr[j + 1]! += indptr[j]!;
  if (sorted) {
    return { matrix: { nGenes, nCells, indptr, indices: gene, data: value }, duplicates: 0 };
  }
  const indices = new Uint32Array(n);
  const data = new Float32Array(n);
  const next = indptr.slice(0, nCells);
  for (let k = 0; k < n; k++) {
    const at = next[cell[k]!]!++;
    indices[at] = gene[k]!;
    data[at] = value[k]!;
  }
  return sortAndDedupe({ nGenes, nCells, indptr, indices, data });
}

/** Sort gene indices inside every cell and sum duplicates; compacts the arrays if needed. */
function sortAndDedupe(m: CountMatrix): { matrix: CountMatrix; duplicates: number } {
  const { indptr, indices, data, nCells } = m;
  let duplicates = 0;
  let order = new Uint32Array(0);
  for (let j = 0; j < nCells; j++) {
    const s = indptr[j]!;
    const e = indptr[j + 1]!;
    let ok = true;
    for (let k = s + 1; k < e; k++) if (indices[k]! <= indices[k - 1]!) ok = false;
    if (ok) continue;
    const len = e - s;
    if (order.length < len) order = new Uint32Array(len);
    const o = order.subarray(0, len);
    for (let k = 0; k < len; k++) o[k] = k;
    const gi = indices.slice(s, e);
    const dv = data.slice(s, e);
    o.sort((a, b) => gi[a]! - gi[b]!);
    for (let k = 0; k < len; k++) {
      indices[s + k] = gi[o[k]!]!;
      data[s + k] = dv[o[k]!]!;
    }
    for (let k = s + 1; k < e; k++) if (indices[k] === indices[k - 1]) duplicates++;
  }
  if (duplicates === 0) return { matrix: m, duplicates };
  const newPtr = new Float64Array(nCells + 1);
  const newIdx = new Uint32Array(indices.length - duplicates);
  const newData = new Float32Array(indices.length - duplicates);
  let w = 0;
  for (let j = 0; j < nCells; j++) {
    for (let k = indptr[j]!; k < indptr[j + 1]!; k++) {
      if (w > newPtr[j]! && newIdx[w - 1] === indices[k]) newData[w - 1]! += data[k]!;
      else {
        newIdx[w] = indices[k]!;
        newData[w] = data[k]!;
        w++;
      }
    }
    newPtr[j + 1] = w;
  }
  return { matrix: { ...m, indptr: newPtr, indices: newIdx, data: newData }, duplicates };
}

/**
 * A compressed matrix whose major axis is cells (10x HDF5 CSC genes × cells, AnnData CSR
 * cells × genes) as the canonical CSC by cell, validating pointers and gene indices.
 */
export function csrToCanonical(
  cellPtr: ArrayLike<number>,
  geneIdx: ArrayLike<number>,
  values: ArrayLike<number>,
  nCells: number,
  nGenes: number,
  file: string,
): CountMatrix {
  const nnz = values.length;
  if (
    cellPtr.length !== nCells + 1 ||
    cellPtr[0] !== 0 ||
    cellPtr[nCells] !== nnz ||
    geneIdx.length !== nnz
  ) {
    throw new FormatError('h5.bad_field', {
      file,
      field: 'indptr',
      detail: `pointers do not match ${nCells} cells and ${nnz} values`,
    });
  }
  const indptr = Float64Array.from(cellPtr);
  for (let j = 0; j < nCells; j++) {
    if (indptr[j + 1]! < indptr[j]!)
      throw new FormatError('h5.bad_field', { file, field: 'indptr', detail: `decreases at cell ${j}` });
  }
  const indices = new Uint32Array(nnz);
  for (let k = 0; k < nnz; k++) {
    const g = geneIdx[k]!;
    if (g < 0 || g >= nGenes)
      throw new FormatError('h5.bad_field', {
        file,
        field: 'indices',
        detail: `gene index ${g} is outside 0..${nGenes - 1}`,
      });
    indices[k] = g;
  }
  const data = values instanceof Float32Array ? values.slice() : Float32Array.from(values);
  return sortAndDedupe({ nGenes, nCells, indptr, indices, data }).matrix;
}

/**
 * Convert a compressed matrix whose major axis is genes (CSR genes × cells, e.g. AnnData X stored
 * CSC cells × genes) into the canonical CSC by cell.
 */
export function transposeCompressed(
  majorPtr: ArrayLike<number>,
  minor: ArrayLike<number>,
  values: ArrayLike<number>,
  nMajor: number,
  nMinor: number,
): CountMatrix {
  const nnz = values.length;
  const indptr = new Float64Array(nMinor + 1);
  for (let k = 0; k < nnz; k++) indptr[minor[k]! + 1]!++;
  for (let j = 0; j < nMinor; j++) indptr[j + 1]! += indptr[j]!;
  const next = indptr.slice(0, nMinor);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  for (let g = 0; g < nMajor; g++) {
    for (let k = majorPtr[g]!; k < majorPtr[g + 1]!; k++) {
      const at = next[minor[k]!]!++;
      indices[at] = g;
      data[at] = values[k]!;
    }
  }
  return sortAndDedupe({ nGenes: nMajor, nCells: nMinor, indptr, indices, data }).matrix;
}

/** Keep only the genes where `keep[g]` is true, renumbering gene indices. */
export function subsetGenes(m: CountMatrix, keep: ArrayLike<boolean>): CountMatrix {
  const newIndex = new Int32Array(m.nGenes).fill(-1);
  let nGenes = 0;
  for (let g = 0; g < m.nGenes; g++) if (keep[g]) newIndex[g] = nGenes++;
  const indptr = new Float64Array(m.nCells + 1);
  let nnz = 0;
  for (let k = 0; k < m.indices.length; k++) if (newIndex[m.indices[k]!]! >= 0) nnz++;
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let w = 0;
  for (let j = 0; j < m.nCells; j++) {
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++) {
      const ng = newIndex[m.indices[k]!]!;
      if (ng >= 0) {
        indices[w] = ng;
        data[w++] = m.data[k]!;
      }
    }
    indptr[j + 1] = w;
  }
  return { nGenes, nCells: m.nCells, indptr, indices, data };
}

/** scanpy's `var_names_make_unique`: repeated names get "-1", "-2", … appended. */
export function makeUnique(names: string[]): { names: string[]; renamed: number } {
  const seen = new Set(names);
  if (seen.size === names.length) return { names, renamed: 0 };
  const counts = new Map<string, number>();
  const first = new Set<string>();
  let renamed = 0;
  const out = names.map((n) => {
    if (!first.has(n)) {
      first.add(n);
      return n;
    }
    let k = counts.get(n) ?? 0;
    let candidate: string;
    do candidate = `${n}-${++k}`;
    while (seen.has(candidate));
    counts.set(n, k);
    seen.add(candidate);
    renamed++;
    return candidate;
  });
  return { names: out, renamed };
}

/** Scan values: are they all non-negative integers? Returns the first offending value. */
export function checkCounts(
  data: ArrayLike<number>,
): { ok: true } | { ok: false; value: number; negative: boolean; notFinite?: boolean } {
  for (let k = 0; k < data.length; k++) {
    const v = data[k]!;
    if (!Number.isFinite(v)) return { ok: false, value: v, negative: false, notFinite: true };
    if (v < 0 || !Number.isInteger(v)) return { ok: false, value: v, negative: v < 0 };
  }
  return { ok: true };
}
