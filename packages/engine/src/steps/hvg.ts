import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { dispersionHvg } from '../stats/dispersion-hvg';
import type { NormalizeStep } from './normalize';
import type { CountsSource } from './sources';
import { Step } from './step';
import { pearsonResidualHvg } from '../methods/pearson-hvg';
import { seuratV3Hvg } from '../stats/seurat-v3-hvg';

export type HvgParams = Pick<AnalysisParams, 'numberOfHighlyVariableGenes' | 'hvgMethod'>;

export interface HvgResult {
  selected: Uint8Array;
  /** Per-gene ranking statistic: normalized dispersion ('seurat'), standardized clipped variance ('seurat_v3') or residual variance ('pearson'). */
  score: Float64Array;
  means: Float64Array;
}

/**
 * Highly variable genes: scanpy 'seurat' dispersion on log data, 'seurat_v3' (Seurat vst, the
 * docs/methods/pipeline.md#highly-variable-genes reference flavour) on counts, or Pearson residuals on counts.
 */
export class HvgStep extends Step<HvgParams, HvgResult> {
  readonly name = 'hvg' as const;

  constructor(
    private readonly source: CountsSource,
    private readonly normalize: NormalizeStep,
  ) {
    super([source, normalize]);
  }

  static defaults(): HvgParams {
    return pickDefaults('numberOfHighlyVariableGenes', 'hvgMethod');
  }

  protected run(params: HvgParams): HvgResult {
    const nTop = Math.min(params.numberOfHighlyVariableGenes, this.normalize.value.nGenes);
    const d = dispersionHvg(this.normalize.value, nTop);
    // Log-normalized input has no counts for vst or residuals to model: dispersion on the log data.
    if (this.normalize.kind === 'logNormalized')
      return { selected: d.selected, score: d.dispersionsNorm, means: d.means };
    if (params.hvgMethod === 'pearson') {
      const p = pearsonResidualHvg(this.source.value.counts, nTop);
      return { selected: p.selected, score: p.variances, means: d.means };
    }
    if (params.hvgMethod === 'seurat_v3') {
      const v = seuratV3Hvg(this.source.value.counts, nTop);
      return { selected: v.selected, score: v.variancesNorm, means: d.means };
    }
    return { selected: d.selected, score: d.dispersionsNorm, means: d.means };
  }
}
