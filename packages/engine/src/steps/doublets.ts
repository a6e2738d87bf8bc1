import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { scrublet } from '../methods/scrublet';
import { selectCellsAndGenes } from '../sparse';
import type { FilteredData } from './filter';
import { indicesWhere } from './filter';
import type { CountsSource } from './sources';
import { Step } from './step';

export type DoubletParams = Pick<AnalysisParams, 'doubletDetectionAndRemoval' | 'seed'>;

export interface SampleDoublets {
  sample: string;
  threshold: number;
  /** Fraction of the sample's cells predicted as doublets. */
  doubletRate: number;
  expectedDoubletRate: number;
  removed: number;
}

export interface DoubletResult extends FilteredData {
  /** Scrublet score per kept cell (absent when detection is off). */
  doubletScore?: Float32Array;
  doublets: SampleDoublets[];
}

/** The per-cell fields of `data` for the listed cells; `inPlace` compacts the counts without a copy. */
export function keepCells(data: FilteredData, keep: Int32Array, inPlace = false): FilteredData {
  const pick = (a: Float64Array) => Float64Array.from(keep, (c) => a[c]);
  return {
    ...data,
    counts: selectCellsAndGenes(data.counts, keep, undefined, inPlace),
    barcodes: Array.from(keep, (c) => data.barcodes[c]),
    sampleOfCell: Int32Array.from(keep, (c) => data.sampleOfCell[c]),
    cellIndex: Int32Array.from(keep, (c) => data.cellIndex[c]),
    qc: {
      nGenes: pick(data.qc.nGenes),
      nUmi: pick(data.qc.nUmi),
      pctMito: pick(data.qc.pctMito),
      pctRibo: pick(data.qc.pctRibo),
    },
  };
}

/**
 * Scrublet per sample (D2's methods/scrublet: expected rate 0.05, 0.25 fallback; samples under
 * 12,500 cells average up to 5 simulations whose seeds derive from the analysis seed,
 * docs/methods/pipeline.md#doublets) when `doubletDetectionAndRemoval` is on; predicted doublets
 * are removed. Off: cells pass through.
 */
export class DoubletStep extends Step<DoubletParams, DoubletResult> {
  readonly name = 'doublets' as const;
  /** One-shot runs: doublets are dropped from the filtered counts in place (no re-run from the filtered data). */
  inPlace = false;

  constructor(private readonly source: CountsSource) {
    super([source]);
  }

  static defaults(): DoubletParams {
    return pickDefaults('doubletDetectionAndRemoval', 'seed');
  }

  protected async run(
    params: DoubletParams,
    progress: (f: number, m: string) => void,
  ): Promise<DoubletResult> {
    const data = this.source.value;
    if (!params.doubletDetectionAndRemoval) return { ...data, doublets: [] };
    const nSamples = data.summary.length;
    const score = new Float32Array(data.counts.nCells);
    const keepFlag = new Uint8Array(data.counts.nCells).fill(1);
    const doublets: SampleDoublets[] = [];
    for (let s = 0; s < nSamples; s++) {
      const cells = indicesWhere(Uint8Array.from(data.sampleOfCell, (x) => (x === s ? 1 : 0)));
      // the sample's cells are read in place (no copy); genes unexpressed in the sample fail Scrublet's min_cells=3
      const r = await scrublet(data.counts, {
        cells,
        seed: params.seed,
        onProgress: (f) => progress((s + f) / nSamples, `Scrublet on sample ${data.summary[s].sample}`),
      });
      let removed = 0;
      cells.forEach((c, i) => {
        score[c] = r.scores[i];
        if (r.predicted[i]) {
          keepFlag[c] = 0;
          removed++;
        }
      });
      doublets.push({
        sample: data.summary[s].sample,
        threshold: r.threshold,
        doubletRate: r.doubletRate,
        expectedDoubletRate: r.expectedDoubletRate,
        removed,
      });
    }
    const keep = indicesWhere(keepFlag);
    return {
      ...keepCells(data, keep, this.inPlace),
      doubletScore: Float32Array.from(keep, (c) => score[c]),
      doublets,
    };
  }
}
