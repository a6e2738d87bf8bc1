import type { DataShape } from '../_shared/contract/memory';
import type { VdjParams } from './contract';

/** Contig tables and per-cell clonotype strings: a fixed base and a few hundred bytes per cell. */
export function estimateMemoryBytes(shape: DataShape, _params?: VdjParams): number {
  return 200e6 + shape.nCells * 400;
}
