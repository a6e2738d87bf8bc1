import type { AnalysisParams, CellFilteringResult } from '@cellcloud/contracts';
import type { Dataset } from '@cellcloud/formats';
import { computeQcMetrics, type QcMetrics } from '@cellcloud/engine/steps/qc-metrics';
import { recommendThresholds } from '@cellcloud/engine/steps/thresholds';

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The cell-filtering evaluation of the selected samples (runs in the analysis child process):
 * the engine's per-cell QC metrics and its recommended thresholds (docs/product/limits.md#cell-filtering-defaults, docs/methods/pipeline.md#qc-filters, the
 * mito cutoff being the cross-sample mode), with the engine's own functions so the preview and
 * the analysis filter agree.
 */
export function evaluateCellFiltering(
  samples: { name: string; dataset: Dataset }[],
  params: AnalysisParams,
): CellFilteringResult {
  const perSample = samples.map((s) => computeQcMetrics(s.dataset.counts, s.dataset.genes.symbols));
  const total = perSample.reduce((n, q) => n + q.nGenes.length, 0);
  const merged: QcMetrics = {
    nGenes: new Float64Array(total),
    nUmi: new Float64Array(total),
    pctMito: new Float64Array(total),
    pctRibo: new Float64Array(total),
  };
  const cellsOfSample: number[][] = [];
  let offset = 0;
  for (const q of perSample) {
    merged.nGenes.set(q.nGenes, offset);
    merged.nUmi.set(q.nUmi, offset);
    merged.pctMito.set(q.pctMito, offset);
    merged.pctRibo.set(q.pctRibo, offset);
    cellsOfSample.push(Array.from({ length: q.nGenes.length }, (_, i) => offset + i));
    offset += q.nGenes.length;
  }
  const recommendedParams = {
    ...params,
    expressedGeneRange: { ...params.expressedGeneRange, state: 'recommended' as const },
    expressedUmiRange: { ...params.expressedUmiRange, state: 'recommended' as const },
    mitochondrialContent: { ...params.mitochondrialContent, state: 'recommended' as const },
  };
  const thresholds = recommendThresholds(merged, cellsOfSample, recommendedParams);
  return {
    samples: samples.map((s, i) => {
      const q = perSample[i]!;
      const t = thresholds[i]!;
      return {
        name: s.name,
        cells: q.nGenes.length,
        genes: Array.from(q.nGenes),
        umis: Array.from(q.nUmi),
        mito: Array.from(q.pctMito, round2),
        ribo: Array.from(q.pctRibo, round2),
        recommended: {
          geneRange: [t.minGenes, Number.isFinite(t.maxGenes) ? t.maxGenes : 0] as [number, number],
          umiRange: [t.minUmi, Number.isFinite(t.maxUmi) ? t.maxUmi : 0] as [number, number],
          mitochondrial: t.maxMito,
          ribosomal: t.maxRibo,
        },
      };
    }),
  };
}
