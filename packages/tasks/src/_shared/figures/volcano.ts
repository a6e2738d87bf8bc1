import type { FigureOption } from './option';

/** Significance of a DE row in the volcano: adjusted p < 0.05 and |log2 fold change| ≥ 1. */
const SIG_P = 0.05;
const SIG_FC = 1;

export interface VolcanoLabels {
  log2fc: string;
  negLog10Padj: string;
  up: string;
  down: string;
  ns: string;
}

/**
 * Volcano plot of DE rows (log2 fold change × −log10 adjusted p, up / down / not significant): the
 * deg-groups view, the deg-groups figure and the explorer's saved comparisons in the figure export.
 */
export function volcanoOption(
  rows: Iterable<{ log2fc: number; padj: number }>,
  labels: VolcanoLabels,
): FigureOption {
  const up: number[][] = [];
  const down: number[][] = [];
  const ns: number[][] = [];
  for (const r of rows) {
    if (!Number.isFinite(r.log2fc) || !Number.isFinite(r.padj)) continue;
    const p = [r.log2fc, -Math.log10(Math.max(r.padj, 1e-300))];
    (r.padj < SIG_P && r.log2fc >= SIG_FC ? up : r.padj < SIG_P && r.log2fc <= -SIG_FC ? down : ns).push(p);
  }
  return {
    grid: { left: 80, right: 160, top: 60, bottom: 70 },
    legend: { orient: 'vertical', right: 10, top: 60 },
    xAxis: { type: 'value', name: labels.log2fc, nameLocation: 'middle', nameGap: 30 },
    yAxis: { type: 'value', name: labels.negLog10Padj, nameLocation: 'middle', nameGap: 50 },
    series: [
      { type: 'scatter', name: labels.ns, symbolSize: 3, itemStyle: { color: '#bdbdbd' }, data: ns },
      { type: 'scatter', name: labels.up, symbolSize: 4, itemStyle: { color: '#d62728' }, data: up },
      { type: 'scatter', name: labels.down, symbolSize: 4, itemStyle: { color: '#1f77b4' }, data: down },
    ],
  };
}
