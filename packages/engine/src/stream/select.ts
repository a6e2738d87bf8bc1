import { valueKindOf, type ValueKind } from '@cellcloud/contracts/files';
import type { CellChunks, GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';

/**
 * Views of the kept cells and kept genes of a count matrix (the streamed path's filters are masks,
 * never copies: docs/engine-scaling.md). `cells` lists the kept cells in increasing order; `genes`
 * the kept genes in increasing order (new gene j is old gene genes[j]). Entries are selected and
 * genes renumbered when a chunk or block is decoded — the same values, in the same order, as
 * selectCellsAndGenes (sparse.ts) gives in memory.
 */
export interface Selection {
  cells: Uint32Array;
  genes: Uint32Array;
  /** Old gene → new gene, −1 when dropped (length: the old gene count). */
  geneMap: Int32Array;
}

export function selection(cells: Uint32Array, keepGene: Uint8Array): Selection {
  const geneMap = new Int32Array(keepGene.length).fill(-1);
  const genes: number[] = [];
  keepGene.forEach((k, g) => {
    if (k) {
      geneMap[g] = genes.length;
      genes.push(g);
    }
  });
  return { cells, genes: Uint32Array.from(genes), geneMap };
}

/**
 * Cell chunks of the selection: one chunk per source chunk holding kept cells. `nnz` is the
 * source's until the caller sets the view's (known after a pass: `countStored`).
 */
export function selectCells(src: CellChunks, sel: Selection): CellChunks {
  const { cells, geneMap, genes } = sel;
  // source chunk of each view chunk, and its first kept cell (position in `cells`)
  const from: number[] = [];
  const first: number[] = [];
  let p = 0;
  for (let i = 0; i < src.chunkCount && p < cells.length; i++) {
    const end = src.chunkStart(i + 1);
    if (cells[p] >= end) continue;
    from.push(i);
    first.push(p);
    while (p < cells.length && cells[p] < end) p++;
  }
  first.push(cells.length);
  return {
    nCells: cells.length,
    nGenes: genes.length,
    nnz: src.nnz,
    chunkCount: from.length,
    chunkStart: (i) => first[Math.min(i, from.length)],
    chunk(i) {
      const m = src.chunk(from[i]);
      const c0 = src.chunkStart(from[i]);
      const n = first[i + 1] - first[i];
      const indptr = new Float64Array(n + 1);
      let nnz = 0;
      for (let j = 0; j < n; j++) {
        const c = cells[first[i] + j] - c0;
        for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) if (geneMap[m.indices[k]] >= 0) nnz++;
      }
      const indices = new Uint32Array(nnz);
      const data = new Float32Array(nnz);
      let o = 0;
      for (let j = 0; j < n; j++) {
        const c = cells[first[i] + j] - c0;
        for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
          const g = geneMap[m.indices[k]];
          if (g < 0) continue;
          indices[o] = g;
          data[o++] = m.data[k];
        }
        indptr[j + 1] = o;
      }
      return { nGenes: genes.length, nCells: n, indptr, indices, data };
    },
  };
}

/** Gene blocks of the selection; `geneNnz`: stored values of each kept gene over the kept cells. */
export function selectGenes(src: GeneBlocks, sel: Selection, geneNnz: Float64Array): GeneBlocks {
  const { cells, genes } = sel;
  const cellMap = new Int32Array(src.nCells).fill(-1);
  cells.forEach((c, i) => (cellMap[c] = i));
  return {
    nCells: cells.length,
    nGenes: genes.length,
    geneNnz,
    genes(g0, g1) {
      const indptr = new Float64Array(g1 - g0 + 1);
      if (g1 <= g0)
        return {
          g0,
          g1,
          nCells: cells.length,
          indptr,
          indices: new Uint32Array(0),
          data: new Float32Array(0),
        };
      const o0 = genes[g0];
      const b = src.genes(o0, genes[g1 - 1] + 1);
      for (let j = g0; j < g1; j++) indptr[j - g0 + 1] = indptr[j - g0] + geneNnz[j];
      const indices = new Uint32Array(indptr[g1 - g0]);
      const data = new Float32Array(indptr[g1 - g0]);
      let o = 0;
      for (let j = g0; j < g1; j++) {
        const r = genes[j] - o0;
        for (let k = b.indptr[r]; k < b.indptr[r + 1]; k++) {
          const c = cellMap[b.indices[k]];
          if (c < 0) continue;
          indices[o] = c;
          data[o++] = b.data[k];
        }
      }
      return { g0, g1, nCells: cells.length, indptr, indices, data };
    },
  };
}

/** Calls `visit` with each chunk of `cells` and its first cell, in order. */
export function forEachChunk(cells: CellChunks, visit: (m: CountMatrix, c0: number) => void): void {
  for (let i = 0; i < cells.chunkCount; i++) visit(cells.chunk(i), cells.chunkStart(i));
}

/** What one pass over the selected counts gives the later steps. */
export interface StoredCounts {
  /** Sum of the stored counts of each cell (logNormalize's totals). */
  totals: Float64Array;
  /** Stored values of each gene. */
  geneNnz: Float64Array;
  nnz: number;
  /** countsKind (steps/normalize.ts) of the values. */
  kind: ValueKind;
}

export function countStored(cells: CellChunks): StoredCounts {
  const totals = new Float64Array(cells.nCells);
  const geneNnz = new Float64Array(cells.nGenes);
  let nnz = 0;
  let nonInteger = false;
  let max = 0;
  forEachChunk(cells, (m, c0) => {
    for (let c = 0; c < m.nCells; c++) {
      let total = 0;
      for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
        const v = m.data[k];
        total += v;
        geneNnz[m.indices[k]]++;
        if (v > max) max = v;
        if (!nonInteger && !Number.isInteger(v)) nonInteger = true;
      }
      totals[c0 + c] = total;
    }
    nnz += m.indptr[m.nCells];
  });
  return { totals, geneNnz, nnz, kind: valueKindOf(nonInteger, max) };
}
