import type { CountMatrix } from './matrix';

/**
 * A cell-major sparse matrix read a block of entries at a time: `indptr` (nCells + 1 entry
 * offsets) is in memory, `entries(start, end)` returns the gene indices and values of entries
 * [start, end). The streamed exports (issue 21) write from it without the whole matrix in memory.
 */
export interface CellBlocks {
  nCells: number;
  nGenes: number;
  indptr: ArrayLike<number>;
  entries(start: number, end: number): { indices: ArrayLike<number>; data: ArrayLike<number> };
}

/** An in-memory matrix as cell blocks (views, no copy). */
export function cellBlocksOf(m: CountMatrix): CellBlocks {
  return {
    nCells: m.nCells,
    nGenes: m.nGenes,
    indptr: m.indptr,
    entries: (start, end) => ({ indices: m.indices.subarray(start, end), data: m.data.subarray(start, end) }),
  };
}
