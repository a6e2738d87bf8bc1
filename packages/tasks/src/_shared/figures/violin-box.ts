import { CLASSIC10 } from '@cellcloud/formats/palettes';
import type { FigureOption } from './option';

/** Colours of groups (cell types, subclones): the CNV heat map's annotation strip and the violins. */
export const GROUP_COLOURS = [
  ...CLASSIC10,
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
  '#e6550d',
  '#31a354',
  '#756bb1',
  '#636363',
];

/** One group of a violin/box chart with precomputed box statistics and KDE outline. */
export interface ViolinGroup {
  label: string;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  grid: number[];
  density: number[];
}

export interface Bracket {
  a: string;
  b: string;
  signif: string;
}

/**
 * Violins (mirrored KDE polygons), boxes and significance brackets with stars (ggpubr style) as an
 * ECharts option. Brackets are stacked above the largest value.
 */
export function violinBoxOption(
  groups: ViolinGroup[],
  brackets: Bracket[],
  yName: string,
  opts: { violin?: boolean; title?: string } = {},
): FigureOption {
  const violin = opts.violin ?? true;
  let lo = Infinity;
  let hi = -Infinity;
  for (const g of groups) {
    lo = Math.min(lo, g.min);
    hi = Math.max(hi, g.max);
  }
  if (!Number.isFinite(lo)) {
    lo = 0;
    hi = 1;
  }
  const span = hi - lo || 1;
  const idx = new Map(groups.map((g, i) => [g.label, i]));
  const shown = brackets.filter((b) => idx.has(b.a) && idx.has(b.b)).slice(0, 8);
  const step = span * 0.08;
  const top = hi + step * (shown.length + 1);
  return {
    animation: false,
    title: opts.title
      ? { text: opts.title, left: 'center', textStyle: { fontSize: 12, fontWeight: 'normal' } }
      : undefined,
    tooltip: { trigger: 'item' },
    grid: { left: 70, right: 20, top: 40, bottom: 90 },
    xAxis: {
      type: 'category',
      data: groups.map((g) => g.label),
      axisLabel: { rotate: groups.length > 5 ? 35 : 0, interval: 0 },
    },
    yAxis: {
      type: 'value',
      name: yName,
      min: lo - span * 0.05,
      max: top,
      axisLabel: { formatter: (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) },
    },
    series: [
      ...(violin
        ? [
            {
              type: 'custom' as const,
              data: groups.map((_, i) => [i]),
              silent: true,
              renderItem: (
                params: { dataIndex: number },
                api: { coord: (v: number[]) => number[]; size?: (v: number[]) => number[] | number },
              ) => {
                const i = params.dataIndex;
                const g = groups[i]!;
                const dmax = Math.max(...g.density, 1e-300);
                const centre = api.coord([i, lo]);
                const size = api.size?.([1, 0]);
                const halfWidth = Math.min(60, (Array.isArray(size) ? size[0]! : 60) * 0.4);
                const left = g.grid.map((y, k) => [
                  centre[0]! - (g.density[k]! / dmax) * halfWidth,
                  api.coord([i, y])[1]!,
                ]);
                const right = g.grid
                  .map((y, k) => [centre[0]! + (g.density[k]! / dmax) * halfWidth, api.coord([i, y])[1]!])
                  .reverse();
                return {
                  type: 'polygon',
                  shape: { points: [...left, ...right] },
                  style: { fill: GROUP_COLOURS[i % GROUP_COLOURS.length], opacity: 0.5 },
                };
              },
            },
          ]
        : []),
      {
        type: 'boxplot',
        boxWidth: violin ? [4, 12] : [10, 40],
        itemStyle: { color: violin ? '#fff' : '#e6f0fa', borderColor: '#333' },
        data: groups.map((g) => [g.min, g.q1, g.median, g.q3, g.max]),
      },
      {
        type: 'custom',
        silent: true,
        data: shown.map((_, i) => [i]),
        renderItem: (params: { dataIndex: number }, api: { coord: (v: number[]) => number[] }) => {
          const b = shown[params.dataIndex]!;
          const y = hi + step * (params.dataIndex + 0.6);
          const p1 = api.coord([idx.get(b.a)!, y]);
          const p2 = api.coord([idx.get(b.b)!, y]);
          const tick = 5;
          return {
            type: 'group',
            children: [
              {
                type: 'polyline',
                shape: { points: [[p1[0]!, p1[1]! + tick], p1, p2, [p2[0]!, p2[1]! + tick]] },
                style: { stroke: '#333', fill: 'none' },
              },
              {
                type: 'text',
                style: {
                  x: (p1[0]! + p2[0]!) / 2,
                  y: p1[1]! - 12,
                  text: b.signif,
                  align: 'center',
                  fill: '#222',
                  fontSize: 12,
                },
              },
            ],
          };
        },
      },
    ],
  } as FigureOption;
}
