import type { DataShape } from '../_shared/contract/memory';
import type { GsvaParams } from './contract';

/** The normalized matrix, the genes × columns kernel CDFs and ranks (≤ maxCells columns per cell). */
export function estimateMemoryBytes({ nCells, nGenes, nnz }: DataShape, params: GsvaParams): number {
  const cols = params.mode === 'cells' ? Math.min(nCells, params.maxCells) : 200;
  return nnz * 8 + nGenes * cols * 8 * 3 + 256 * 2 ** 20;
}
