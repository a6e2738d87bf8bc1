import type { DataShape } from '../_shared/contract/memory';
import type { EnrichParams } from './contract';

/** As deg-groups when it computes the two groups inline, plus the gene set libraries. */
export function estimateMemoryBytes({ nCells, nGenes, nnz }: DataShape, _params?: EnrichParams): number {
  return nnz * 8 * 2 + nCells * 16 + nGenes * 2 * 8 * 12 + 256 * 2 ** 20;
}
