import { expect } from 'vitest';
import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';

/**
 * Comparisons of the streamed (out-of-core) results with the in-memory ones, shared by
 * stream/run-streamed.test.ts (merge of samples) and pbmc3k.test.ts (the whole pipeline on pbmc3k).
 */

/** All chunks of a streamed matrix as one cell-major matrix. */
export function gather(cells: CellChunks): CountMatrix {
  const parts = Array.from({ length: cells.chunkCount }, (_, i) => cells.chunk(i));
  const nnz = parts.reduce((a, m) => a + m.indptr[m.nCells], 0);
  const indptr = new Float64Array(cells.nCells + 1);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let p = 0;
  let c = 0;
  for (const m of parts) {
    indices.set(m.indices.subarray(0, m.indptr[m.nCells]), p);
    data.set(m.data.subarray(0, m.indptr[m.nCells]), p);
    for (let j = 0; j < m.nCells; j++) indptr[++c] = p + m.indptr[j + 1];
    p += m.indptr[m.nCells];
  }
  return { nGenes: cells.nGenes, nCells: cells.nCells, indptr, indices, data };
}

/** Index of the first element where two arrays differ (−1: equal; vitest's deep equality is slow on millions). */
export function firstDifference(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  n = Math.max(a.length, b.length),
): number {
  if (a.length < n || b.length < n) return Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return i;
  return -1;
}

export function expectSameMatrix(a: CountMatrix, b: CountMatrix): void {
  expect(a.nCells).toBe(b.nCells);
  expect(a.nGenes).toBe(b.nGenes);
  const nnz = b.indptr[b.nCells];
  expect(firstDifference(a.indptr, b.indptr, b.nCells + 1)).toBe(-1);
  expect(firstDifference(a.indices, b.indices, nnz)).toBe(-1);
  expect(firstDifference(a.data, b.data, nnz)).toBe(-1);
}

export function correlation(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Column `j` of a row-major embedding. */
export const column = (e: { dims: number; values: Float32Array }, j: number) =>
  Float64Array.from({ length: e.values.length / e.dims }, (_, c) => e.values[c * e.dims + j]);
