import type { DataShape } from '../_shared/contract/memory';
import type { CellScoreParams } from './contract';

/** Normalized copy (f32 data + u32 indices) + per-cell rank buffer + output columns and CSV text. */
export function estimateMemoryBytes({ nCells, nGenes, nnz }: DataShape, _params?: CellScoreParams): number {
  return 8 * nnz + 16 * nGenes + 64 * nCells + 32 * 1024 * 1024;
}
