import { initScran } from '../scran';
import { checkLength, checkRange, denseLabels, rejectUnknownOptions } from './validate';

declare module 'scran.js' {
  export function mnnCorrect(
    x: Float64Array,
    block: Int32Array,
    options: {
      numberOfDims: number;
      numberOfCells: number;
      k?: number;
      steps?: number;
      mergePolicy?: 'input' | 'size' | 'variance' | 'rss';
      approximate?: boolean;
      asTypedArray?: true;
    },
  ): Float64Array;
}

export interface MnnOptions {
  /** neighbours in the mutual-nearest-neighbour search (default 15) */
  k?: number;
  /** steps for the centre of mass of each MNN pair (default 1) */
  steps?: number;
  /** order in which batches are merged (default 'rss', scran.js's default) */
  mergePolicy?: 'input' | 'size' | 'variance' | 'rss';
  /** approximate neighbour search (default true) */
  approximate?: boolean;
}

const KEYS = ['k', 'steps', 'mergePolicy', 'approximate'] as const;

/**
 * Mutual-nearest-neighbours batch correction (Haghverdi et al. 2018) of a low-dimensional
 * embedding through scran.js's `mnnCorrect` (libscran mnncorrect). Row-major nCells × nPcs in and
 * out (the layout scran.js calls column-major dims × cells, so no transposition is needed).
 */
export async function mnnCorrect(
  pcs: Float32Array | Float64Array,
  nCells: number,
  nPcs: number,
  batch: Int32Array,
  opts: MnnOptions = {},
): Promise<Float32Array> {
  const M = 'mnnCorrect';
  rejectUnknownOptions(M, opts, KEYS);
  checkLength(M, 'pcs', pcs.length, nCells * nPcs);
  checkLength(M, 'batch', batch.length, nCells);
  const k = checkRange(M, 'k', opts.k ?? 15, 1, Math.max(1, nCells - 1), true);
  const { codes, count } = denseLabels(batch);
  if (count < 2) return Float32Array.from(pcs);
  const scran = await initScran();
  // mnnCorrect copies its inputs to the WebAssembly heap and frees them itself; the result is
  // returned as a JavaScript Float64Array (asTypedArray), so nothing stays allocated here.
  const out = scran.mnnCorrect(Float64Array.from(pcs), codes, {
    numberOfDims: nPcs,
    numberOfCells: nCells,
    k,
    steps: opts.steps ?? 1,
    mergePolicy: opts.mergePolicy ?? 'rss',
    approximate: opts.approximate ?? true,
    asTypedArray: true,
  });
  return Float32Array.from(out);
}
