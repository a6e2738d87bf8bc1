import type { DataShape } from '../_shared/contract/memory';
import type { CnvParams } from './contract';

/** Genomic bins of the heat map (engine/accumulate.ts). */
export const TARGET_BINS = 1000;

/**
 * Normalized copy (8 B per non-zero), per analysed cell: heat-map bins (4 B + 1 B) and arm means,
 * the cnv_arms rows (~40 arms × ~150 B as JS arrays + CSV text), the condensed HCL matrix.
 */
export function estimateMemoryBytes(shape: DataShape, _params?: CnvParams): number {
  const perCell = TARGET_BINS * 5 + 60 * 4 + 40 * 150 + 300;
  return 200e6 + shape.nnz * 8 + shape.nCells * perCell + (3000 * 2999 * 8) / 2;
}
