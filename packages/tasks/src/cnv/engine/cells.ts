import type { CnvParams } from '../contract';
import { categoricalLevel, Random, TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

/** The level of cells outside a subset (never a default observed group). */
export const NA = 'NA';

/**
 * The analysed cells of a CNV run: reference cells first (grouped by reference type, in
 * `p.reference` order), then the observed cells. Positions into `cells` are what every later step
 * indexes ("pos"); `cells[pos]` is the dataset cell.
 */
export interface CnvCells {
  /** Cell type of every dataset cell (`p.groupBy`). */
  types: string[];
  /** Sample of every dataset cell (`'all'` when the dataset has no `p.sampleKey`). */
  sampleOf: string[];
  hasSample: boolean;
  /** Dataset cells, references first. */
  cells: Uint32Array;
  /** Number of reference cells (positions 0 … nRef − 1). */
  nRef: number;
  /** Reference cells available before the `maxRefCells` cap. */
  nRefAvailable: number;
  /** Reference types with at least one cell, in `p.reference` order. */
  refTypes: string[];
  /** Positions of each reference type's cells (same order as `refTypes`). */
  refGroups: Uint32Array[];
  /** Observed dataset cells (in dataset order). */
  observed: number[];
  /** Types of the observed cells, sorted (numeric-aware). */
  observedTypes: string[];
}

/** `k` of `a` drawn without replacement (partial Fisher–Yates), returned in ascending order. */
export function shuffleTake(rng: Random, a: number[], k: number): number[] {
  const c = a.slice();
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(c.length - i);
    [c[i], c[j]] = [c[j], c[i]];
  }
  return c.slice(0, k).sort((x, y) => x - y);
}

/** Reference / observed cell selection (docs/methods/cnv.md) with its TaskErrors for bad choices. */
export function selectCnvCells(result: ResultHandle, p: CnvParams): CnvCells {
  const types = categoricalLevel(result, p.groupBy);
  const present = new Set(types);
  for (const v of [...p.reference, ...(p.observed ?? [])]) {
    if (!present.has(v))
      throw new TaskError('cnv.referenceNotFound', `"${p.groupBy}" has no cell type "${v}".`, {
        key: p.groupBy,
        value: v,
      });
  }
  const hasSample = result.obs(p.sampleKey) !== undefined;
  if (!hasSample && (p.samples?.length || p.splitRef === 'listed')) categoricalLevel(result, p.sampleKey); // throws groupByMissing
  const sampleOf = hasSample
    ? categoricalLevel(result, p.sampleKey)
    : new Array<string>(result.nCells).fill('all');
  const sampleSet = new Set(sampleOf);
  for (const s of [...(p.samples ?? []), ...(p.refSamples ?? [])]) {
    if (!sampleSet.has(s))
      throw new TaskError('cnv.sampleMissing', `"${p.sampleKey}" has no sample "${s}".`, {
        key: p.sampleKey,
        value: s,
      });
  }
  const analysed = new Set(p.samples?.length ? p.samples : sampleSet);
  let refFrom: Set<string>;
  if (p.splitRef === 'all') refFrom = sampleSet;
  else if (p.splitRef === 'listed') {
    if (!p.refSamples?.length)
      throw new TaskError('cnv.refSamplesMissing', 'Choose the samples to take reference cells from.');
    refFrom = new Set(p.refSamples);
  } else refFrom = analysed;
  const refSet = new Set(p.reference);
  // default observed: every other group except 'NA' (cells outside a subset level)
  const obsSet = new Set(
    p.observed?.length ? p.observed : [...present].filter((t) => !refSet.has(t) && t !== NA),
  );
  const refByType = new Map<string, number[]>(p.reference.map((t) => [t, []]));
  const observed: number[] = [];
  for (let c = 0; c < result.nCells; c++) {
    const t = types[c];
    if (refSet.has(t)) {
      if (refFrom.has(sampleOf[c])) refByType.get(t)!.push(c);
    } else if (obsSet.has(t) && analysed.has(sampleOf[c])) observed.push(c);
  }
  const nRefAvailable = [...refByType.values()].reduce((s, a) => s + a.length, 0);
  if (nRefAvailable === 0) {
    throw new TaskError(
      'cnv.noReference',
      `No reference cell of ${p.reference.join(', ')} in the chosen samples.`,
      { types: p.reference.join(', ') },
    );
  }
  if (observed.length < p.minObserved) {
    throw new TaskError(
      'cnv.tooFewObserved',
      `Only ${observed.length} observed cells; at least ${p.minObserved} are needed.`,
      {
        cells: observed.length,
        min: p.minObserved,
      },
    );
  }
  const rng = new Random(p.seed);
  const refTypes = p.reference.filter((t) => refByType.get(t)!.length > 0);
  if (nRefAvailable >= p.maxRefCells) {
    const cap = Math.floor(p.maxRefCells / refTypes.length);
    for (const t of refTypes) {
      const a = refByType.get(t)!;
      if (a.length > cap) refByType.set(t, shuffleTake(rng, a, cap));
    }
  }
  const cellList: number[] = [];
  const refGroups: Uint32Array[] = [];
  for (const t of refTypes) {
    const a = refByType.get(t)!;
    refGroups.push(Uint32Array.from(a, (_, i) => cellList.length + i));
    cellList.push(...a);
  }
  const nRef = cellList.length;
  cellList.push(...observed);
  return {
    types,
    sampleOf,
    hasSample,
    cells: Uint32Array.from(cellList),
    nRef,
    nRefAvailable,
    refTypes,
    refGroups,
    observed,
    observedTypes: [...new Set(observed.map((c) => types[c]))].sort((a, b) =>
      a.localeCompare(b, undefined, { numeric: true }),
    ),
  };
}
