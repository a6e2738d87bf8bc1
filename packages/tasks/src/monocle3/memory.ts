import type { DataShape } from '../_shared/contract/memory';
import type { Monocle3Params } from './contract';

/** Counts copy, the kept cells' graphs and the per-gene tests (docs/methods/monocle3.md). */
export function estimateMemoryBytes(shape: DataShape, params: Monocle3Params): number {
  const n = Math.min(shape.nCells, params.cellsPerGroup * 50);
  return 400e6 + shape.nnz * 12 + n * 2_000 + shape.nGenes * 60 * 8;
}
