import type { DataShape } from '../_shared/contract/memory';

/** The normalized matrix twice (reference genes subset) + per-cell scores of ~40 labels. */
export function estimateMemoryBytes(shape: DataShape): number {
  return 64 * 1024 * 1024 + shape.nnz * 16 + shape.nCells * 40 * 4 * 2;
}
