import type { DataShape } from '../_shared/contract/memory';
import type { GseaParams } from './contract';

/** As deg-groups when the comparison is computed inline, plus the permutations' null scores. */
export function estimateMemoryBytes({ nCells, nGenes, nnz }: DataShape, params: GseaParams): number {
  return nnz * 8 * 2 + nCells * 16 + nGenes * 2 * 8 * 12 + params.nperm * 500 * 8 + 256 * 2 ** 20;
}
