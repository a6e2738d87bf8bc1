import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { computeQcMetrics } from './steps/qc-metrics';
import { cellsBySample, summarizeFilter, type SampleFilterSummary } from './steps/filter';
import { mergeDatasets } from './steps/inputs';
import { recommendThresholds } from './steps/thresholds';
import { distribution, type Distribution } from './stats/quantile';
import { parseParams, validateSamples, type SampleInput } from './validate';

export interface SampleEvaluation extends SampleFilterSummary {
  /** Distributions before filtering (for the violin/box plots of the evaluation page). */
  before: { nGenes: Distribution; nUmi: Distribution; pctMito: Distribution; pctRibo: Distribution };
  /** The same distributions over the cells that pass. */
  after: { nGenes: Distribution; nUmi: Distribution; pctMito: Distribution; pctRibo: Distribution };
}

export interface CellFilteringEvaluation {
  samples: SampleEvaluation[];
  /** The mitochondrial cutoff applied to every sample (cross-sample mode in 'recommended' state). */
  mitochondrialThreshold: number;
  cellsBefore: number;
  cellsAfter: number;
}

/**
 * The wizard's "cell filtering evaluation": QC metrics per cell, recommended (or manual)
 * thresholds per sample and the before/after counts and distributions — without running the rest
 * of the pipeline. Same rules as the analysis (docs/product/limits.md#cell-filtering-defaults, docs/methods/pipeline.md#qc-filters).
 */
export function evaluateCellFiltering(
  samples: SampleInput[],
  paramsInput: AnalysisParamsInput | unknown,
): CellFilteringEvaluation {
  const params = parseParams(paramsInput);
  validateSamples(samples, params);
  const merged = mergeDatasets(samples);
  const qc = computeQcMetrics(merged.counts, merged.geneSymbols);
  const bySample = cellsBySample(merged.sampleOfCell, merged.sampleNames.length);
  const thresholds = recommendThresholds(qc, bySample, params);
  const { keep, summary } = summarizeFilter(qc, bySample, merged.sampleNames, thresholds);
  const dists = (cells: number[]) => ({
    nGenes: distribution(cells.map((c) => qc.nGenes[c])),
    nUmi: distribution(cells.map((c) => qc.nUmi[c])),
    pctMito: distribution(cells.map((c) => qc.pctMito[c])),
    pctRibo: distribution(cells.map((c) => qc.pctRibo[c])),
  });
  const evaluated = summary.map((s, i) => ({
    ...s,
    before: dists(bySample[i]),
    after: dists(bySample[i].filter((c) => keep[c])),
  }));
  return {
    samples: evaluated,
    mitochondrialThreshold: thresholds[0]?.maxMito ?? params.mitochondrialContent.max,
    cellsBefore: merged.counts.nCells,
    cellsAfter: evaluated.reduce((a, s) => a + s.cellsAfter, 0),
  };
}
