import type { DataShape } from '../_shared/contract/memory';
import type { DegGroupsParams } from './contract';

/** Normalized copy (data f32 + indices u32) + transposed block keys + per-gene result arrays. */
export function estimateMemoryBytes({ nCells, nGenes, nnz }: DataShape, _params?: DegGroupsParams): number {
  return nnz * 8 * 2 + nCells * 16 + nGenes * 2 * 8 * 12 + 64 * 2 ** 20;
}
