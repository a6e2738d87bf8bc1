import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { LIMITS } from '@cellcloud/contracts/constants';
import { decontx } from '../methods/decontx';
import { quickClusters } from '../quick-cluster';
import { subsetCells } from '../sparse';
import type { FilteredData } from './filter';
import { indicesWhere } from './filter';
import type { CountsSource } from './sources';
import { Step } from './step';

export type AmbientParams = Pick<AnalysisParams, 'ambientRnaRemoval' | 'seed'>;

export interface SampleAmbient {
  sample: string;
  /** Median DecontX contamination; null when the sample was skipped (≤ 100 cells or one cluster). */
  medianContamination: number | null;
  contaminated: boolean;
  /** Whether the decontaminated counts replaced the sample's counts. */
  removed: boolean;
  skippedReason?: 'too-few-cells' | 'single-cluster' | 'not-selected';
}

export interface AmbientResult extends FilteredData {
  /** DecontX contamination per cell (0 for cells of skipped samples); absent when off. */
  contamination?: Float32Array;
  ambient: SampleAmbient[];
}

/**
 * Ambient RNA removal (docs/methods/pipeline.md#ambient-rna) when enabled: per selected sample with more than 100 cells,
 * cluster the sample, run DecontX (D2's methods/decontx) and replace its counts with the rounded
 * decontaminated counts. Mode 'default' = all samples, 'basedOnSingleSamples' = the listed ones.
 */
export class AmbientStep extends Step<AmbientParams, AmbientResult> {
  readonly name = 'ambient' as const;

  constructor(private readonly source: CountsSource) {
    super([source]);
  }

  static defaults(): AmbientParams {
    return pickDefaults('ambientRnaRemoval', 'seed');
  }

  protected async run(
    params: AmbientParams,
    progress: (f: number, m: string) => void,
  ): Promise<AmbientResult> {
    const data = this.source.value;
    const cfg = params.ambientRnaRemoval;
    if (!cfg.enabled) return { ...data, ambient: [] };
    const counts = data.counts;
    const contamination = new Float32Array(counts.nCells);
    const replaced = new Map<
      number,
      { cells: Int32Array; m: import('@cellcloud/formats/matrix').CountMatrix }
    >();
    const ambient: SampleAmbient[] = [];
    const names = data.summary.map((s) => s.sample);
    for (let s = 0; s < names.length; s++) {
      progress(s / names.length, `DecontX on sample ${names[s]}`);
      const selected = cfg.mode === 'default' || cfg.samples.includes(names[s]);
      const cells = indicesWhere(Uint8Array.from(data.sampleOfCell, (x) => (x === s ? 1 : 0)));
      const base = { sample: names[s], medianContamination: null, contaminated: false, removed: false };
      if (!selected) {
        ambient.push({ ...base, skippedReason: 'not-selected' });
        continue;
      }
      if (cells.length <= LIMITS.ambientMinCells) {
        ambient.push({ ...base, skippedReason: 'too-few-cells' });
        continue;
      }
      const own = subsetCells(counts, cells);
      const clusters = await quickClusters(own);
      if (new Set(clusters).size < 2) {
        ambient.push({ ...base, skippedReason: 'single-cluster' });
        continue;
      }
      const r = decontx(own, clusters, { seed: params.seed });
      cells.forEach((c, i) => (contamination[c] = r.contamination[i]));
      replaced.set(s, { cells, m: r.decontaminated });
      ambient.push({
        sample: names[s],
        medianContamination: r.median,
        contaminated: r.median > LIMITS.contaminationThreshold,
        removed: true,
      });
    }
    return { ...data, counts: replaceSamples(counts, data.sampleOfCell, replaced), contamination, ambient };
  }
}

/** Rebuilds the matrix with the cells of some samples taken from their decontaminated matrices. */
function replaceSamples(
  counts: import('@cellcloud/formats/matrix').CountMatrix,
  sampleOfCell: Int32Array,
  replaced: Map<number, { cells: Int32Array; m: import('@cellcloud/formats/matrix').CountMatrix }>,
) {
  if (replaced.size === 0) return counts;
  const source = new Int32Array(counts.nCells); // position of each cell in its replacement matrix
  for (const { cells } of replaced.values()) cells.forEach((c, i) => (source[c] = i));
  const pick = (c: number) => {
    const r = replaced.get(sampleOfCell[c]);
    return r ? { m: r.m, j: source[c] } : { m: counts, j: c };
  };
  let nnz = 0;
  for (let c = 0; c < counts.nCells; c++) {
    const { m, j } = pick(c);
    nnz += m.indptr[j + 1] - m.indptr[j];
  }
  const indptr = new Float64Array(counts.nCells + 1);
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  let p = 0;
  for (let c = 0; c < counts.nCells; c++) {
    const { m, j } = pick(c);
    const s = m.indptr[j];
    const e = m.indptr[j + 1];
    indices.set(m.indices.subarray(s, e), p);
    data.set(m.data.subarray(s, e), p);
    p += e - s;
    indptr[c + 1] = p;
  }
  return { nGenes: counts.nGenes, nCells: counts.nCells, indptr, indices, data };
}
