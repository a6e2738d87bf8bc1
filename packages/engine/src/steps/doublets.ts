import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { scrublet } from '../methods/scrublet';
import { subsetCells, subsetGenes } from '../sparse';
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

/** Copies the per-cell fields of `data` for the listed cells. */
export function keepCells(data: FilteredData, keep: Int32Array): FilteredData {
  const pick = (a: Float64Array) => Float64Array.from(keep, (c) => a[c]);
  return {
    ...data,
    counts: subsetCells(data.counts, keep),
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
 * Scrublet per sample (D2's methods/scrublet: expected rate 0.05, 0.25 fallback) when
 * `doubletDetectionAndRemoval` is on; predicted doublets are removed. Off: cells pass through.
 */
export class DoubletStep extends Step<DoubletParams, DoubletResult> {
  readonly name = 'doublets' as const;

  constructor(private readonly source: CountsSource) {
    super([source]);
  }

  static defaults(): DoubletParams {
    return { doubletDetectionAndRemoval: true, seed: 42 };
  }

  protected async run(params: DoubletParams, progress: (f: number, m: string) => void): Promise<DoubletResult> {
    const data = this.source.value;
    if (!params.doubletDetectionAndRemoval) return { ...data, doublets: [] };
    const nSamples = data.summary.length;
    const score = new Float32Array(data.counts.nCells);
    const keepFlag = new Uint8Array(data.counts.nCells).fill(1);
    const doublets: SampleDoublets[] = [];
    for (let s = 0; s < nSamples; s++) {
      const cells = indicesWhere(Uint8Array.from(data.sampleOfCell, (x) => (x === s ? 1 : 0)));
      const own = subsetCells(data.counts, cells);
      const r = await scrublet(nSamples > 1 ? subsetGenes(own, expressed(own)) : own, {
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
    return { ...keepCells(data, keep), doubletScore: Float32Array.from(keep, (c) => score[c]), doublets };
  }
}

function expressed(m: { nGenes: number; indices: Uint32Array }): Uint8Array {
  const out = new Uint8Array(m.nGenes);
  for (const g of m.indices) out[g] = 1;
  return out;
}
