import type { DataShape } from '../_shared/contract/memory';
import type { RegulonsParams } from './contract';

/** Normalized copy, the sampled cells' feature and target matrices, per-cell AUCs and the GRN work. */
export function estimateMemoryBytes(shape: DataShape, params: RegulonsParams): number {
  const sampled = Math.min(shape.nCells, params.cellsPerType * 50);
  return (
    shape.nnz * 8 +
    sampled * (Math.min(params.maxTargets, 3000) + 1500) * 5 +
    shape.nCells * 200 * 8 +
    256 * 2 ** 20
  );
}
