import type { ChartOption } from './echarts';
import { boxStats, violinDensity } from '../stats/groupStats';

/**
 * Violin + box per group as an ECharts option: a custom series draws each group's mirrored KDE as
 * a polygon; a boxplot series overlays quartiles.
 */
export function violinOption(
  groups: string[],
  values: Float64Array[],
  colours: string[],
  yName: string,
): ChartOption {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values)
    for (let i = 0; i < v.length; i += 1) {
      if (v[i]! < lo) lo = v[i]!;
      if (v[i]! > hi) hi = v[i]!;
    }
  if (!Number.isFinite(lo)) {
    lo = 0;
    hi = 1;
  }
  const steps = 48;
  const grid = Array.from({ length: steps }, (_, i) => lo + ((hi - lo) * i) / (steps - 1));
  const densities = values.map((v) => violinDensity(v, grid));
  return {
    animation: false,
    tooltip: { trigger: 'item' },
    grid: { left: 60, right: 20, top: 20, bottom: 80 },
    xAxis: { type: 'category', data: groups, axisLabel: { rotate: groups.length > 6 ? 40 : 0 } },
    yAxis: { type: 'value', name: yName, scale: true },
    series: [
      {
        type: 'custom',
        data: groups.map((_, i) => [i]),
        silent: true,
        renderItem: (params, api) => {
          const i = params.dataIndex;
          const d = densities[i]!;
          const centre = api.coord([i, lo]);
          const halfWidth = Math.min(70, (api.size?.([1, 0]) as number[])[0]! * 0.4);
          const left = grid.map((y, k) => [centre[0]! - d[k]! * halfWidth, api.coord([i, y])[1]!]);
          const right = grid.map((y, k) => [centre[0]! + d[k]! * halfWidth, api.coord([i, y])[1]!]).reverse();
          return {
            type: 'polygon',
            shape: { points: [...left, ...right] },
            style: { fill: colours[i % colours.length], opacity: 0.55 },
          };
        },
      },
      {
        type: 'boxplot',
        boxWidth: [4, 10],
        itemStyle: { color: '#fff', borderColor: '#333' },
        data: values.map((v) => {
          const b = boxStats(v);
          return [b.min, b.q1, b.median, b.q3, b.max];
        }),
      },
    ],
  };
}
