import type { GraphSeriesOption } from 'echarts/charts';
import type { FigureOption } from './option';
import { palette } from '@cellcloud/formats/palettes';

/** ECharts options of the trajectory views (issue 23). */

export interface CellLayer {
  x: number[];
  y: number[];
  /** categorical labels, or numbers (continuous colour) */
  labels?: string[];
  values?: (number | null)[];
}

export interface TreeLayer {
  nodes: { id: string; x: number; y: number }[];
  edges: [string, string][];
  /** node ids drawn large and red (roots), orange (branch points) */
  highlight?: string[];
  secondary?: string[];
  showNodeLabels?: boolean;
}

const GREY = '#c8c8c8';

/** Cells (coloured by a category or a continuous value) with the principal graph drawn over them. */
export function trajectoryOption(cells: CellLayer, tree: TreeLayer, valueName: string): FigureOption {
  const series: object[] = [];
  let visualMap: FigureOption['visualMap'] | undefined;
  if (cells.values) {
    const finite = cells.values.filter((v): v is number => v !== null && Number.isFinite(v));
    // loops, not Math.max(...spread): one value per cell overflows the call stack at ~100k+
    const max = finite.length ? finite.reduce((a, b) => Math.max(a, b), -Infinity) : 1;
    const min = finite.length ? finite.reduce((a, b) => Math.min(a, b), Infinity) : 0;
    series.push({
      type: 'scatter',
      name: valueName,
      symbolSize: 4,
      data: cells.x.map((x, i) => [x, cells.y[i]!, cells.values![i] ?? NaN]),
      itemStyle: { opacity: 0.85 },
    });
    visualMap = {
      type: 'continuous',
      min,
      max,
      dimension: 2,
      seriesIndex: 0,
      right: 0,
      top: 'middle',
      calculable: true,
      text: [max.toFixed(1), min.toFixed(1)],
      inRange: { color: ['#3b4cc0', '#8fb0fe', '#dddddd', '#f49a7b', '#b40426'] },
      outOfRange: { color: [GREY] },
    };
  } else if (cells.labels) {
    const cats = [...new Set(cells.labels)].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    const colours = palette('Default');
    cats.forEach((c, k) => {
      const data: [number, number][] = [];
      cells.labels!.forEach((l, i) => l === c && data.push([cells.x[i]!, cells.y[i]!]));
      series.push({
        type: 'scatter',
        name: c,
        symbolSize: 4,
        data,
        itemStyle: { color: colours[k % colours.length], opacity: 0.85 },
      });
    });
  }
  const hi = new Set(tree.highlight ?? []);
  const sec = new Set(tree.secondary ?? []);
  series.push({
    type: 'graph' as const,
    coordinateSystem: 'cartesian2d',
    name: 'graph',
    z: 10,
    data: tree.nodes.map((n) => ({
      name: n.id,
      value: [n.x, n.y],
      symbolSize: hi.has(n.id) ? 12 : sec.has(n.id) ? 9 : 4,
      itemStyle: { color: hi.has(n.id) ? '#e02020' : sec.has(n.id) ? '#fa8c16' : '#222222' },
      label: {
        show: (tree.showNodeLabels ?? false) || hi.has(n.id) || sec.has(n.id),
        formatter: n.id,
        fontSize: 10,
        position: 'top',
      },
    })),
    links: tree.edges.map(([source, target]) => ({ source, target })),
    lineStyle: { color: '#222222', width: 1.5, opacity: 0.9 },
    emphasis: { disabled: true },
  } as GraphSeriesOption);
  return {
    animation: false,
    grid: { left: 40, right: cells.values ? 70 : 140, top: 20, bottom: 30 },
    xAxis: { type: 'value', scale: true, splitLine: { show: false } },
    yAxis: { type: 'value', scale: true, splitLine: { show: false } },
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) =>
        String(
          (p as { name?: string; seriesName?: string }).name ||
            (p as { seriesName?: string }).seriesName ||
            '',
        ),
    },
    legend: cells.labels
      ? { type: 'scroll', orient: 'vertical', right: 0, top: 20, data: [...new Set(cells.labels)].sort() }
      : undefined,
    visualMap,
    series,
  } as FigureOption;
}

/** Row-labelled heat map (rows × columns), values clipped to ±3. */
export function heatmapOption(
  rows: string[],
  columns: string[],
  values: number[][],
  xName: string,
): FigureOption {
  const data: [number, number, number][] = [];
  values.forEach((row, r) => row.forEach((v, c) => data.push([c, r, v])));
  return {
    animation: false,
    grid: { left: 110, right: 70, top: 10, bottom: 60 },
    tooltip: { position: 'top' },
    xAxis: {
      type: 'category',
      data: columns,
      name: xName,
      nameLocation: 'middle',
      nameGap: 40,
      axisLabel: {
        interval: columns.length > 30 ? Math.floor(columns.length / 10) : 0,
        rotate: columns.length > 30 ? 0 : 30,
      },
    },
    yAxis: { type: 'category', data: rows, inverse: true, axisLabel: { fontSize: 10 } },
    visualMap: {
      min: -3,
      max: 3,
      calculable: true,
      right: 0,
      top: 'middle',
      inRange: { color: ['#3b4cc0', '#f7f7f7', '#b40426'] },
    },
    series: [{ type: 'heatmap', data, progressive: 0 }],
  } as FigureOption;
}

/**
 * Heat map of genes grouped by their cluster: rows sorted by cluster (then input order) and
 * labelled "gene (cluster)".
 */
export function clusteredHeatmapOption(
  h: { genes: string[]; clusters: number[]; values: number[][] },
  columns: string[],
  xName: string,
): FigureOption {
  const order = h.genes.map((_, i) => i).sort((a, b) => h.clusters[a]! - h.clusters[b]! || a - b);
  return heatmapOption(
    order.map((i) => `${h.genes[i]} (${h.clusters[i]})`),
    columns,
    order.map((i) => h.values[i]!),
    xName,
  );
}

/** Lines of several genes along pseudotime. */
export function linesOption(
  x: number[],
  lines: { name: string; values: number[] }[],
  xName: string,
  yName: string,
): FigureOption {
  return {
    animation: false,
    grid: { left: 50, right: 20, top: 40, bottom: 40 },
    legend: { type: 'scroll', top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'value', name: xName, nameLocation: 'middle', nameGap: 25, scale: true },
    yAxis: { type: 'value', name: yName },
    series: lines.map((l) => ({
      type: 'line',
      name: l.name,
      showSymbol: false,
      data: x.map((v, i) => [v, l.values[i]!]),
    })),
  } as FigureOption;
}

/** Cells' expression along pseudotime (points) with a fitted curve. */
export function genePseudotimeOption(
  pt: number[],
  expr: number[],
  curveX: number[],
  curve: number[],
  colourBy: string[] | undefined,
  names: { x: string; y: string },
): FigureOption {
  const cats = colourBy
    ? [...new Set(colourBy)].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    : ['cells'];
  const colours = palette('Default');
  return {
    animation: false,
    grid: { left: 50, right: 20, top: 40, bottom: 40 },
    legend: { type: 'scroll', top: 0 },
    xAxis: { type: 'value', name: names.x, nameLocation: 'middle', nameGap: 25 },
    yAxis: { type: 'log', name: names.y, min: 0.1 },
    series: [
      ...cats.map((c, k) => ({
        type: 'scatter' as const,
        name: c,
        symbolSize: 3,
        itemStyle: { color: colours[k % colours.length], opacity: 0.6 },
        data: pt.flatMap((t, i) => (!colourBy || colourBy[i] === c ? [[t, Math.max(0.1, expr[i]!)]] : [])),
      })),
      {
        type: 'line' as const,
        name: 'fit',
        showSymbol: false,
        lineStyle: { color: '#000', width: 2 },
        data: curveX.map((t, i) => [t, Math.max(0.1, curve[i]!)]),
      },
    ],
  } as FigureOption;
}
