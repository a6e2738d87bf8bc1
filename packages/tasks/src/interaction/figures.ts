import { stem, type TaskFigures } from '../_shared/figures/export';
import type { FigureOption } from '../_shared/figures/option';
import { numberColumn, textColumn } from '../_shared/figures/table';
import type { InteractionMeta, InteractionSummary } from './contract';

/**
 * Figure options of the cell interaction views (issue 16), pure functions of the task outputs:
 * step 1 heat map of significant-interaction counts (count or log), the cell-type network and the
 * dot plot of the top 30 pairs; step 2 the same dot plot for a chosen set of pairs. The figure
 * export draws the step 1 heat map with the same builder.
 */
type ChartOption = FigureOption;

/** Everything the views read: summary, interaction metadata, means and p-values (interaction-major × pairs). */
export interface InteractionData {
  summary: InteractionSummary;
  meta: InteractionMeta;
  means: Float32Array;
  pvalues: Float32Array;
}

export interface HeatLabels {
  source: string;
  target: string;
  count: string;
}

/**
 * Heat map of the count network (`counts[source][target]`): rows sources, columns targets; `log`
 * shows log(count + 1).
 */
export function countHeatmapOption(
  types: readonly string[],
  counts: readonly (readonly number[])[],
  log: boolean,
  labels: HeatLabels,
): ChartOption {
  const data: [number, number, number][] = [];
  let max = 0;
  counts.forEach((row, a) =>
    row.forEach((c, b) => {
      const v = log ? Math.round(Math.log1p(c) * 1000) / 1000 : c;
      if (v > max) max = v;
      data.push([b, a, v]);
    }),
  );
  return {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: [number, number, number] }).value;
        return `${labels.source}: ${types[v[1]]}<br/>${labels.target}: ${types[v[0]]}<br/>${labels.count}: ${v[2]}`;
      },
    },
    grid: { left: 130, right: 90, top: 20, bottom: 120 },
    xAxis: {
      type: 'category',
      data: [...types],
      name: labels.target,
      nameLocation: 'middle',
      nameGap: 100,
      axisLabel: { rotate: 45 },
    },
    yAxis: {
      type: 'category',
      data: [...types],
      name: labels.source,
      nameLocation: 'middle',
      nameGap: 115,
      inverse: true,
    },
    visualMap: {
      min: 0,
      max: Math.max(max, 1),
      precision: log ? 2 : 0,
      calculable: true,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      inRange: { color: ['#2c7bb6', '#ffffbf', '#d7191c'] },
    },
    series: [{ type: 'heatmap', data, label: { show: types.length <= 12, fontSize: 10 } }],
  };
}

/** Circular network of cell types: edge width ∝ significant interactions from source to target. */
export function networkOption(summary: InteractionSummary, palette: readonly string[]): ChartOption {
  const types = summary.cellTypes.map((t) => t.name);
  let max = 1;
  for (const row of summary.counts) for (const c of row) max = Math.max(max, c);
  const totals = types.map((_, a) => summary.counts[a]!.reduce((s, c) => s + c, 0));
  const maxTotal = Math.max(1, ...totals);
  const links = summary.counts.flatMap((row, a) =>
    row
      .map((c, b) => ({ a, b, c }))
      .filter((l) => l.c > 0 && l.a !== l.b)
      .map((l) => ({
        source: types[l.a]!,
        target: types[l.b]!,
        value: l.c,
        lineStyle: {
          width: 0.5 + (6 * l.c) / max,
          color: palette[l.a % palette.length],
          opacity: 0.6,
          curveness: 0.25,
        },
      })),
  );
  return {
    animation: false,
    tooltip: {},
    series: [
      {
        type: 'graph',
        layout: 'circular',
        circular: { rotateLabel: true },
        roam: false,
        edgeSymbol: ['none', 'arrow'],
        edgeSymbolSize: 6,
        label: { show: true, position: 'right' },
        data: types.map((name, a) => ({
          name,
          value: totals[a],
          symbolSize: 10 + (30 * totals[a]!) / maxTotal,
          itemStyle: { color: palette[a % palette.length] },
        })),
        links,
      },
    ],
  };
}

export interface DotLabels {
  mean: string;
  pvalue: string;
}

/**
 * CellPhoneDB-style dot plot: x = cell-type pairs, y = interacting pairs; dot size −log10(p)
 * (p = 0 drawn at 1/iterations), colour the mean.
 */
export function dotPlotOption(
  d: InteractionData,
  rows: number[],
  pairs: number[],
  labels: DotLabels,
): ChartOption {
  const nP = d.meta.pairs.length;
  const floor = 1 / Math.max(1, d.summary.iterations);
  const maxSize = -Math.log10(floor);
  const points: [number, number, number, number][] = [];
  let maxMean = 0;
  rows.forEach((i, y) =>
    pairs.forEach((q, x) => {
      const m = d.means[i * nP + q]!;
      const p = d.pvalues[i * nP + q]!;
      if (m > maxMean) maxMean = m;
      points.push([x, y, m, p]);
    }),
  );
  return {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: [number, number, number, number] }).value;
        return `${d.meta.interactions[rows[v[1]]!]!.pair}<br/>${d.meta.pairs[pairs[v[0]]!]}<br/>${labels.mean}: ${v[2].toFixed(3)}<br/>${labels.pvalue}: ${v[3]}`;
      },
    },
    grid: { left: 220, right: 100, top: 20, bottom: 160 },
    xAxis: {
      type: 'category',
      data: pairs.map((q) => d.meta.pairs[q]!),
      axisLabel: { rotate: 60, fontSize: 10, interval: 0 },
      splitLine: { show: true },
    },
    yAxis: {
      type: 'category',
      data: rows.map((i) => d.meta.interactions[i]!.pair),
      axisLabel: { fontSize: 10, interval: 0 },
      inverse: true,
      splitLine: { show: true },
    },
    visualMap: {
      dimension: 2,
      min: 0,
      max: Math.max(maxMean, 0.001),
      precision: 2,
      calculable: true,
      right: 0,
      top: 'middle',
      text: [labels.mean, ''],
      inRange: { color: ['#313695', '#74add1', '#fee090', '#f46d43', '#a50026'] },
    },
    series: [
      {
        type: 'scatter',
        data: points,
        symbolSize: (v: number[]) => 3 + (12 * -Math.log10(Math.max(v[3]!, floor))) / maxSize,
      },
    ],
  };
}

/** Row heights so dot plots stay readable (ECharts draws in the given box). */
export function dotPlotHeight(nRows: number): number {
  return Math.max(260, 180 + 16 * nRows);
}

/** Export: the step 1 heat map of significant-interaction counts (the count_network table). */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.count_network;
    if (!tb?.rows.length) return [];
    const src = textColumn(tb, 'SOURCE')!;
    const dst = textColumn(tb, 'TARGET')!;
    const n = numberColumn(tb, 'count')!;
    const types = [...new Set([...src, ...dst])];
    const counts = types.map(() => types.map(() => 0));
    src.forEach((s, i) => (counts[types.indexOf(s)]![types.indexOf(dst[i]!)] = n[i]!));
    const size = 300 + types.length * 28;
    const labels = { source: t('figures.source'), target: t('figures.target'), count: t('figures.count') };
    return [
      {
        name: `tasks/${stem(k.name)}_interaction_count`,
        title: t('figures.interaction'),
        option: countHeatmapOption(types, counts, false, labels),
        width: size + 120,
        height: size,
      },
    ];
  },
};
