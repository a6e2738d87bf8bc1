import { pickDefaults } from '@cellcloud/contracts/analysis-params';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { subsetGenesCompact } from '@cellcloud/engine/sparse';
import { seuratV3Hvg } from '@cellcloud/engine/stats/seurat-v3-hvg';
import { countsKind, logNormalize } from '@cellcloud/engine/steps/normalize';
import {
  MAX_SCALED_VALUE,
  PCA_START_SEED,
  pcsToUse,
  scaledSparsePca,
  type PcaResult,
} from '@cellcloud/engine/steps/pca';

/**
 * PCs for a result that stored none (an uploaded h5ad): the analysis' defaults — Seurat v3 HVGs
 * (2,000) on the counts, log-normalised, each HVG scaled and clipped at 10, randomized sparse PCA
 * (steps/pca.ts), the "auto" PC count (stats/n-pcs). The analysis' own results always store X_pca.
 */
export function recomputedPcs(counts: CountMatrix): { pcs: PcaResult; nPcs: number } {
  const { numberOfHighlyVariableGenes } = pickDefaults('numberOfHighlyVariableGenes');
  const hvg = seuratV3Hvg(counts, Math.min(numberOfHighlyVariableGenes, counts.nGenes));
  const norm = logNormalize(counts, countsKind(counts));
  const sub = subsetGenesCompact(norm, hvg.selected, true);
  // the analysis' PCA starts from its own fixed seed (PCA_START_SEED), not the layout's
  const pcs = scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, sub !== norm);
  return { pcs, nPcs: pcsToUse('auto', pcs) };
}
