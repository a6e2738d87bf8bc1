import { categoryColours } from '@cellcloud/formats/palettes';
import type { FigureOption } from './option';

/**
 * Chart option builders shared by the task views (web) and the figure export (server), so a
 * downloaded figure draws what the user saw: violins, horizontal bars, heat maps. Pure functions.
 */

/** The default categorical colours (the explorer's 'Default' palette). */
export const colours = (n: number) => categoryColours('Default', n);

/** At most `max` evenly spread values of `v` (the shape of a distribution, bounded work). */
export function thin(v: number[], max = 5000): number[] {
  if (v.length <= max) return v;
  const step = v.length / max;
  return Array.from({ length: max }, (_, i) => v[Math.floor(i * step)]!);
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (pos - lo);
}

/** Gaussian kernel density of `v` at `grid`, Silverman bandwidth, scaled to a peak of 1. */
function density(v: number[], grid: number[]): number[] {
  const n = v.length;
  if (!n) return grid.map(() => 0);
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const h = Math.max(1.06 * (sd || 1) * n ** -0.2, 1e-9);
  const d = grid.map((g) => v.reduce((a, x) => a + Math.exp(-0.5 * ((g - x) / h) ** 2), 0));
  const peak = Math.max(...d) || 1;
  return d.map((x) => x / peak);
}

/** Violin (mirrored density) + box per group. */
export function violinOption(
  groups: string[],
  values: number[][],
  yName: string,
  xName: string,
): FigureOption {
  const clean = values.map((v) => thin(v.filter(Number.isFinite)).sort((a, b) => a - b));
  // each group is sorted: its ends are its extremes (no spread of up to 60 × 5,000 values)
  const filled = clean.filter((v) => v.length);
  const lo = filled.length ? Math.min(...filled.map((v) => v[0]!)) : 0;
  const hi = filled.length ? Math.max(...filled.map((v) => v[v.length - 1]!)) : 1;
  const grid = Array.from({ length: 48 }, (_, i) => lo + ((hi - lo || 1) * i) / 47);
  const dens = clean.map((v) => density(v, grid));
  const fill = colours(groups.length);
  return {
    grid: { left: 80, right: 30, top: 60, bottom: 110 },
    xAxis: {
      type: 'category',
      data: groups,
      name: xName,
      nameLocation: 'middle',
      nameGap: 80,
      axisLabel: { rotate: groups.length > 6 ? 40 : 0 },
    },
    yAxis: { type: 'value', name: yName, nameLocation: 'middle', nameGap: 55, scale: true },
    series: [
      {
        type: 'custom',
        silent: true,
        data: groups.map((_, i) => [i]),
        renderItem: (params, api) => {
          const i = params.dataIndex;
          const half = Math.min(60, ((api.size?.([1, 0]) as number[])[0] ?? 40) * 0.4);
          const x = api.coord([i, lo])[0]!;
          const left = grid.map((y, k) => [x - dens[i]![k]! * half, api.coord([i, y])[1]!]);
          const right = grid.map((y, k) => [x + dens[i]![k]! * half, api.coord([i, y])[1]!]).reverse();
          return {
            type: 'polygon',
            shape: { points: [...left, ...right] },
            style: { fill: fill[i], opacity: 0.6 },
          };
        },
      },
      {
        type: 'boxplot',
        boxWidth: [4, 10],
        itemStyle: { color: '#ffffff', borderColor: '#333333' },
        data: clean.map((v) => [
          v[0] ?? 0,
          quantile(v, 0.25),
          quantile(v, 0.5),
          quantile(v, 0.75),
          v[v.length - 1] ?? 0,
        ]),
      },
    ],
  };
}

/** Horizontal bars, first category at the top. */
export function barOption(
  categories: string[],
  values: number[],
  xName: string,
  colour: (v: number) => string,
): FigureOption {
  const short = categories.map((c) => (c.length > 60 ? `${c.slice(0, 57)}…` : c));
  return {
    grid: { left: 380, right: 40, top: 60, bottom: 60 },
    xAxis: { type: 'value', name: xName, nameLocation: 'middle', nameGap: 30 },
    yAxis: { type: 'category', data: [...short].reverse(), axisLabel: { fontSize: 11 } },
    series: [
      {
        type: 'bar',
        data: [...values].reverse().map((v) => ({ value: v, itemStyle: { color: colour(v) } })),
      },
    ],
  };
}

/** Heat map of rows × columns (`cells[r][c]`). */
export function heatmapOption(
  rows: string[],
  cols: string[],
  cells: number[][],
  xName: string,
  yName: string,
): FigureOption {
  const data: [number, number, number][] = [];
  let max = 0;
  let min = Infinity;
  cells.forEach((r, i) =>
    r.forEach((v, j) => {
      if (!Number.isFinite(v)) return;
      data.push([j, i, v]);
      max = Math.max(max, v);
      min = Math.min(min, v);
    }),
  );
  return {
    grid: { left: 170, right: 110, top: 60, bottom: 110 },
    xAxis: {
      type: 'category',
      data: cols,
      name: xName,
      nameLocation: 'middle',
      nameGap: 90,
      axisLabel: { rotate: 50, fontSize: 11 },
    },
    yAxis: {
      type: 'category',
      data: rows,
      name: yName,
      nameLocation: 'middle',
      nameGap: 140,
      axisLabel: { fontSize: 11 },
    },
    visualMap: {
      min: Number.isFinite(min) ? min : 0,
      max: max || 1,
      calculable: false,
      text: [
        String(Math.round((max || 1) * 1000) / 1000),
        String(Math.round((Number.isFinite(min) ? min : 0) * 1000) / 1000),
      ],
      orient: 'vertical',
      right: 10,
      top: 'middle',
      inRange: { color: ['#f7fbff', '#6baed6', '#08306b'] },
    },
    series: [{ type: 'heatmap', data }],
  };
}
