import type { DataShape } from '../_shared/contract/memory';
import type { Monocle2Params } from './contract';

/** Counts copy of the kept cells, DDRTree (n × 200 doubles) and the per-cell GLM work (docs/methods/monocle2.md). */
export function estimateMemoryBytes(shape: DataShape, params: Monocle2Params): number {
  const n =
    params.downsample === 'none'
      ? shape.nCells
      : Math.min(shape.nCells, typeof params.downsample === 'number' ? params.downsample * 50 : 10_000);
  return 400e6 + shape.nnz * 12 + n * 200 * 8 + n * 4_000;
}
