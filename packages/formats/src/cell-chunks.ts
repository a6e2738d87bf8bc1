import type { CountMatrix } from './matrix';

/**
 * The two ways the out-of-core engine (issue 33) reads a count matrix without holding it: cell
 * chunks for per-cell passes (QC, normalization, PCA products, writing) and gene blocks for
 * per-gene work (HVG statistics, markers, one gene's expression for the explorer). The count store
 * (`store/`, docs/formats/count-store.md) implements both over a file; `cellChunksOf` /
 * `geneBlocksOf` adapt an in-memory matrix, so every streamed step also runs on small data and can
 * be checked against the in-memory path. Reads are synchronous (positional reads of a local file).
 */
export interface CellChunks {
  nCells: number;
  nGenes: number;
  /** Stored non-zeros in all cells. */
  nnz: number;
  chunkCount: number;
  /** First cell of chunk `i`; `chunkStart(chunkCount)` is `nCells`. */
  chunkStart(i: number): number;
  /**
   * The cells of chunk `i` (CSC by cell as in matrix.ts, `indptr` starting at 0). The arrays are
   * the caller's: they may be kept, and are not reused by the next call.
   */
  chunk(i: number): CountMatrix;
}

/** The values of genes [g0, g1) over all cells, gene-major (CSR by gene, cells increasing). */
export interface GeneBlock {
  g0: number;
  g1: number;
  nCells: number;
  /** Length g1 - g0 + 1: the values of gene g0 + j are data[indptr[j] .. indptr[j+1]). */
  indptr: Float64Array;
  /** Cell index of each value (0 … nCells - 1). */
  indices: Uint32Array;
  data: Float32Array;
}

export interface GeneBlocks {
  nCells: number;
  nGenes: number;
  /** Non-zeros of each gene over all cells (length nGenes), so callers can size blocks. */
  geneNnz: Float64Array;
  genes(g0: number, g1: number): GeneBlock;
}

/** An in-memory matrix as cell chunks of `chunkCells` cells (views copied per chunk). */
export function cellChunksOf(m: CountMatrix, chunkCells = 4096): CellChunks {
  const chunkCount = Math.ceil(m.nCells / chunkCells);
  const chunkStart = (i: number): number => Math.min(m.nCells, i * chunkCells);
  return {
    nCells: m.nCells,
    nGenes: m.nGenes,
    nnz: m.indptr[m.nCells] ?? 0,
    chunkCount,
    chunkStart,
    chunk(i) {
      const c0 = chunkStart(i);
      const c1 = chunkStart(i + 1);
      const s = m.indptr[c0];
      const e = m.indptr[c1];
      const indptr = new Float64Array(c1 - c0 + 1);
      for (let c = c0; c <= c1; c++) indptr[c - c0] = m.indptr[c] - s;
      return {
        nGenes: m.nGenes,
        nCells: c1 - c0,
        indptr,
        indices: m.indices.slice(s, e),
        data: m.data.slice(s, e),
      };
    },
  };
}

/** An in-memory matrix as gene blocks (one counting-sort transpose per call, O(nnz)). */
export function geneBlocksOf(m: CountMatrix): GeneBlocks {
  const geneNnz = new Float64Array(m.nGenes);
  const nnz = m.indptr[m.nCells] ?? 0;
  for (let k = 0; k < nnz; k++) geneNnz[m.indices[k]]++;
  return {
    nCells: m.nCells,
    nGenes: m.nGenes,
    geneNnz,
    genes(g0, g1) {
      const indptr = new Float64Array(g1 - g0 + 1);
      for (let g = g0; g < g1; g++) indptr[g - g0 + 1] = indptr[g - g0] + geneNnz[g];
      const pos = indptr.slice(0, g1 - g0);
      const total = indptr[g1 - g0];
      const indices = new Uint32Array(total);
      const data = new Float32Array(total);
      for (let c = 0; c < m.nCells; c++) {
        for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
          const g = m.indices[k];
          if (g < g0 || g >= g1) continue;
          const p = pos[g - g0]++;
          indices[p] = c;
          data[p] = m.data[k];
        }
      }
      return { g0, g1, nCells: m.nCells, indptr, indices, data };
    },
  };
}
