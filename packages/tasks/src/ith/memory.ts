import type { DataShape } from '../_shared/contract/memory';
import type { IthParams } from './contract';

/** Normalized copy, per identity the m × m distances (m = ncellMax) and the m × nHvg scaled matrix. */
export function estimateMemoryBytes(shape: DataShape, params: IthParams): number {
  const m = params.ncellMax ?? 500;
  return 150e6 + shape.nnz * 8 + m * m * 8 * 4 + m * (params.nHvg ?? 2000) * 8;
}
