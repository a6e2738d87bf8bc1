import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { EngineError } from '../errors';
import { harmony } from '../methods/harmony';
import { mnnCorrect } from '../methods/mnn';
import type { FilteredData } from './filter';
import type { InputsStep } from './inputs';
import { leadingColumns, pcsToUse, type PcaStep } from './pca';
import type { CountsSource } from './sources';
import { Step } from './step';

export type BatchParams = Pick<AnalysisParams, 'batchEffectRemoval' | 'seed' | 'pcValue'>;

/** The representation the graph, clustering and embeddings use (docs/methods/pipeline.md#embeddings). */
export interface ReducedResult {
  /** Row-major nCells × dims. */
  embedding: Float64Array;
  dims: number;
  /** 'harmony' / 'mnn' when a correction was applied, else 'none'. */
  method: 'none' | 'harmony' | 'mnn';
  /** Corrected PCs (all computed PCs, row-major) when a correction ran, for obsm X_pca_harmony. */
  corrected?: Float32Array;
}

/** Batch labels per kept cell: 'Sample ID' = the sample, else a categorical input column. */
export function batchLabels(key: string, data: FilteredData, inputs: InputsStep): Int32Array {
  if (key === 'Sample ID') return data.sampleOfCell;
  const col = inputs.value.columns[key];
  if (!col || col.kind !== 'categorical') {
    throw new EngineError(
      'BATCH_KEY_MISSING',
      `Batch column "${key}" is not a categorical cell column of every sample; choose "Sample ID" or a column present in all samples.`,
      { key },
    );
  }
  const codes = new Map<string, number>();
  return Int32Array.from(data.cellIndex, (c) => {
    const v = col.values[c];
    if (!codes.has(v)) codes.set(v, codes.size);
    return codes.get(v) ?? 0;
  });
}

/** Harmony (default) or MNN (scran.js, via D2's methods/mnn) on all computed PCs when enabled and there is more than one batch. */
export class BatchStep extends Step<BatchParams, ReducedResult> {
  readonly name = 'batch' as const;

  constructor(
    private readonly inputs: InputsStep,
    private readonly source: CountsSource,
    private readonly pca: PcaStep,
  ) {
    super([inputs, source, pca]);
  }

  static defaults(): BatchParams {
    return pickDefaults('batchEffectRemoval', 'seed', 'pcValue');
  }

  protected async run(params: BatchParams, progress: (f: number, m: string) => void): Promise<ReducedResult> {
    const { pcs, nComputed } = this.pca.value;
    const nUsed = pcsToUse(params.pcValue, this.pca.value);
    const nCells = this.source.value.counts.nCells;
    const cfg = params.batchEffectRemoval;
    const batch = cfg.enabled ? batchLabels(cfg.batchKey, this.source.value, this.inputs) : undefined;
    const nBatches = batch ? new Set(batch).size : 1;
    if (!batch || nBatches < 2) {
      return { embedding: leadingColumns(pcs, nCells, nComputed, nUsed), dims: nUsed, method: 'none' };
    }
    const corrected =
      cfg.method === 'mnn'
        ? await mnnCorrect(pcs, nCells, nComputed, batch)
        : harmony(pcs, nCells, nComputed, batch, { seed: params.seed, onProgress: progress });
    return {
      embedding: leadingColumns(corrected, nCells, nComputed, nUsed),
      dims: nUsed,
      method: cfg.method,
      corrected,
    };
  }
}
