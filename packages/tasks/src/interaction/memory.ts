import type { DataShape } from '../_shared/contract/memory';
import type { InteractionParams } from './contract';

/** Normalized matrix (as the handle holds it) + sampled dense-ish kernel + result matrices. */
export function estimateMemoryBytes(shape: DataShape, params: InteractionParams): number {
  const sampled = Math.min(shape.nCells, params.cellsPerType * 60);
  const kernel = sampled * 2000 * 8;
  const results = 3000 * 60 * 60 * 8 * 4;
  return shape.nnz * 8 + kernel + results + 256 * 2 ** 20;
}
