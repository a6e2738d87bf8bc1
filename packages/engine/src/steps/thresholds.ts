import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { MITO_CANDIDATES } from '@cellcloud/contracts/constants';
import { percentile } from '../stats/quantile';
import type { QcMetrics } from './qc-metrics';

/** The cell filter applied to one sample; a cell is kept when every condition holds. */
export interface SampleThresholds {
  minGenes: number; // n_genes ≥ minGenes
  maxGenes: number; // n_genes ≤ maxGenes
  minUmi: number;
  maxUmi: number;
  /** This sample's own recommended mito pick (docs/methods/pipeline.md#qc-filters step 3), before the cross-sample mode. */
  mitoPick: number;
  maxMito: number; // pct mito < maxMito (strict)
  maxRibo: number; // pct ribo < maxRibo (strict)
}

type FilterParams = Pick<
  AnalysisParams,
  'expressedGeneRange' | 'expressedUmiRange' | 'mitochondrialContent' | 'ribosomalContent'
>;

const RECOMMENDED_MIN_GENES = 200;
const RECOMMENDED_MIN_UMI = 0;
const TARGET_REMOVED_FRACTION = 0.05;

/** int(98th percentile) + 1, as docs/methods/pipeline.md#qc-filters (numpy linear percentile). */
function p98Max(values: number[]): number {
  return values.length ? Math.floor(percentile(values, 98)) + 1 : Infinity;
}

/** The mito candidate whose removed fraction (mito % > candidate) is closest to 5%; ties → smallest. */
export function pickMitoCandidate(pctMito: ArrayLike<number>): number {
  let best: number = MITO_CANDIDATES[0];
  let bestDiff = Infinity;
  for (const cand of MITO_CANDIDATES) {
    let above = 0;
    for (let i = 0; i < pctMito.length; i++) if (pctMito[i] > cand) above++;
    const diff = Math.abs((pctMito.length ? above / pctMito.length : 0) - TARGET_REMOVED_FRACTION);
    if (diff < bestDiff - 1e-12) {
      best = cand;
      bestDiff = diff;
    }
  }
  return best;
}

/** Mode of the per-sample picks; several modes → the largest (docs/methods/pipeline.md#qc-filters step 4). */
export function modeLargest(values: number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = -Infinity;
  let bestCount = 0;
  for (const [v, n] of counts) if (n > bestCount || (n === bestCount && v > best)) [best, bestCount] = [v, n];
  return best;
}

/**
 * Thresholds per sample (docs/product/limits.md#cell-filtering-defaults, docs/methods/pipeline.md#qc-filters). `cellsOfSample[s]` lists the cell indices of
 * sample s in `qc`. In 'recommended' state min genes 200 / min UMI 0 and the maxima are the
 * per-sample int(P98)+1 computed after the minimum filters; the mito cutoff is the cross-sample
 * mode of the per-sample picks (computed after the gene and UMI filters).
 */
export function recommendThresholds(
  qc: QcMetrics,
  cellsOfSample: number[][],
  params: FilterParams,
): SampleThresholds[] {
  const geneRec = params.expressedGeneRange.state === 'recommended';
  const umiRec = params.expressedUmiRange.state === 'recommended';
  const perSample = cellsOfSample.map((cells) => {
    const minGenes = geneRec ? RECOMMENDED_MIN_GENES : params.expressedGeneRange.range[0];
    const minUmi = umiRec ? RECOMMENDED_MIN_UMI : params.expressedUmiRange.range[0];
    const afterMin = cells.filter((c) => qc.nGenes[c] >= minGenes && qc.nUmi[c] >= minUmi);
    const maxGenes = geneRec ? p98Max(afterMin.map((c) => qc.nGenes[c])) : params.expressedGeneRange.range[1];
    const maxUmi = umiRec ? p98Max(afterMin.map((c) => qc.nUmi[c])) : params.expressedUmiRange.range[1];
    const afterAll = afterMin.filter((c) => qc.nGenes[c] <= maxGenes && qc.nUmi[c] <= maxUmi);
    const mitoPick = pickMitoCandidate(afterAll.map((c) => qc.pctMito[c]));
    return { minGenes, maxGenes, minUmi, maxUmi, mitoPick, maxMito: 0, maxRibo: params.ribosomalContent.max };
  });
  const mito =
    params.mitochondrialContent.state === 'recommended'
      ? modeLargest(perSample.map((s) => s.mitoPick))
      : params.mitochondrialContent.max;
  return perSample.map((s) => ({ ...s, maxMito: mito }));
}

export function passesThresholds(qc: QcMetrics, c: number, t: SampleThresholds): boolean {
  return (
    qc.nGenes[c] >= t.minGenes &&
    qc.nGenes[c] <= t.maxGenes &&
    qc.nUmi[c] >= t.minUmi &&
    qc.nUmi[c] <= t.maxUmi &&
    qc.pctMito[c] < t.maxMito &&
    qc.pctRibo[c] < t.maxRibo
  );
}
