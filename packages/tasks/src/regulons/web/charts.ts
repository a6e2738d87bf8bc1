import type { RegulonCellHeatmap, RegulonFeatures } from '../contract';
import type { FigureOption } from '../../_shared/figures/option';
import { palette } from '@cellcloud/formats/palettes';

export type Rows = (string | number | null)[][];

const DIVERGING = ['#2c7bb6', '#ffffbf', '#d7191c'];
const SEQUENTIAL = ['#f7fbff', '#6baed6', '#08306b'];

/** Heat map of a (row label, values…) table: rows on y, the remaining columns on x. */
export function matrixHeatmap(
  columns: string[],
  rows: Rows,
  opts: { order?: number[]; diverging?: boolean },
): FigureOption {
  const xs = columns.slice(1);
  const order = opts.order ?? rows.map((_, i) => i);
  const data: [number, number, number][] = [];
  let min = Infinity;
  let max = -Infinity;
  order.forEach((r, y) =>
    xs.forEach((_, x) => {
      const v = Number(rows[r]![x + 1] ?? 0);
      min = Math.min(min, v);
      max = Math.max(max, v);
      data.push([x, y, Math.round(v * 1000) / 1000]);
    }),
  );
  const lim = Math.max(Math.abs(min), Math.abs(max));
  return {
    animation: false,
    tooltip: {},
    grid: { left: 140, right: 90, top: 20, bottom: 110 },
    xAxis: { type: 'category', data: xs, axisLabel: { rotate: 60, fontSize: 10, interval: 0 } },
    yAxis: {
      type: 'category',
      data: order.map((r) => String(rows[r]![0])),
      inverse: true,
      axisLabel: { fontSize: 10, interval: 0 },
    },
    visualMap: {
      min: opts.diverging ? -lim : min,
      max: opts.diverging ? lim : max,
      precision: 2,
      calculable: true,
      right: 0,
      top: 'middle',
      inRange: { color: opts.diverging ? DIVERGING : SEQUENTIAL },
    },
    series: [{ type: 'heatmap', data }],
  };
}

/** Each value column z-scored over the rows (R `scale`; a constant column becomes 0). */
export function scaleColumns(rows: Rows): Rows {
  const nCol = (rows[0]?.length ?? 1) - 1;
  const out = rows.map((r) => [r[0]!, ...Array<number>(nCol).fill(0)]);
  for (let j = 1; j <= nCol; j++) {
    const v = rows.map((r) => Number(r[j] ?? 0));
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    const sd = Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, v.length - 1));
    v.forEach((x, i) => (out[i]![j] = sd > 0 ? (x - mean) / sd : 0));
  }
  return out;
}

/**
 * Per-cell heat map (docs/methods/regulons.md): the chosen regulons' z-scored AUC (clipped to ±4 by the
 * engine) of the sampled cells, rows grouped by cell type with an annotation strip on the left.
 */
export function cellHeatmapOption(
  h: RegulonCellHeatmap,
  regulons: string[],
  typeLabel: string,
): FigureOption {
  const nR = h.regulons.length;
  const cols = regulons.map((r) => h.regulons.indexOf(r)).filter((k) => k >= 0);
  const types = [...new Set(h.cellTypes)].sort();
  const typeIndex = new Map(types.map((t, i) => [t, i]));
  const order = h.cells
    .map((_, i) => i)
    .sort((a, b) => typeIndex.get(h.cellTypes[a]!)! - typeIndex.get(h.cellTypes[b]!)! || a - b);
  const strip: [number, number, number][] = [];
  const cells: [number, number, number][] = [];
  order.forEach((c, y) => {
    strip.push([0, y, typeIndex.get(h.cellTypes[c]!)!]);
    cols.forEach((k, x) => cells.push([x, y, h.z[c * nR + k]!]));
  });
  const colours = palette('Default');
  const rowsAxis = {
    type: 'category' as const,
    data: order.map((c) => h.cells[c]!),
    inverse: true,
    show: false,
  };
  return {
    animation: false,
    tooltip: {},
    grid: [
      { left: 40, width: 18, top: 20, bottom: 150 },
      { left: 66, right: 90, top: 20, bottom: 150 },
    ],
    xAxis: [
      { gridIndex: 0, type: 'category', data: [typeLabel], axisLabel: { rotate: 60, fontSize: 10 } },
      {
        gridIndex: 1,
        type: 'category',
        data: cols.map((k) => h.regulons[k]!),
        axisLabel: { rotate: 60, fontSize: 10, interval: 0 },
      },
    ],
    yAxis: [
      { gridIndex: 0, ...rowsAxis },
      { gridIndex: 1, ...rowsAxis },
    ],
    visualMap: [
      {
        type: 'piecewise',
        seriesIndex: 0,
        pieces: types.map((t, i) => ({ value: i, label: t, color: colours[i % colours.length]! })),
        orient: 'horizontal',
        left: 0,
        bottom: 0,
        itemWidth: 12,
        textStyle: { fontSize: 10 },
      },
      {
        type: 'continuous',
        seriesIndex: 1,
        min: -4,
        max: 4,
        precision: 2,
        calculable: true,
        right: 0,
        top: 'middle',
        inRange: { color: DIVERGING },
      },
    ],
    series: [
      { type: 'heatmap', xAxisIndex: 0, yAxisIndex: 0, data: strip },
      { type: 'heatmap', xAxisIndex: 1, yAxisIndex: 1, data: cells },
    ],
  };
}

/** One feature plot: the drawn cells on the embedding coloured by `values` over their range (highest on top; caption in the page). */
export function featureOption(f: RegulonFeatures, values: number[]): FigureOption {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  if (!(max > min)) max = min + 1;
  return {
    animation: false,
    grid: { left: 40, right: 70, top: 16, bottom: 30 },
    xAxis: { type: 'value', scale: true, splitLine: { show: false }, axisLine: { onZero: false } },
    yAxis: { type: 'value', scale: true, splitLine: { show: false }, axisLine: { onZero: false } },
    visualMap: {
      min,
      max,
      dimension: 2,
      precision: 3,
      calculable: true,
      right: 0,
      top: 'middle',
      inRange: { color: ['#d9d9d9', '#fdae61', '#d7191c', '#67000d'] },
    },
    series: [
      {
        type: 'scatter',
        symbolSize: 3,
        data: order.map((i) => [f.x[i]!, f.y[i]!, values[i]!]),
      },
    ],
  };
}
