import type { ChartOption } from './echarts';

/** Dot plot: genes × groups, dot size = fraction expressing, colour = mean expression. */
export function dotPlotOption(
  genes: string[],
  groups: string[],
  mean: number[][],
  pct: number[][],
  labels: { mean: string; pct: string },
): ChartOption {
  const data: number[][] = [];
  let max = 0;
  genes.forEach((_, gi) =>
    groups.forEach((__, ci) => {
      data.push([ci, gi, mean[gi]![ci]!, pct[gi]![ci]!]);
      max = Math.max(max, mean[gi]![ci]!);
    }),
  );
  return {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: number[] }).value;
        return `${genes[v[1]!]} · ${groups[v[0]!]}<br/>${labels.mean}: ${v[2]!.toFixed(3)}<br/>${labels.pct}: ${(v[3]! * 100).toFixed(1)}%`;
      },
    },
    grid: { left: 90, right: 100, top: 20, bottom: 90 },
    xAxis: { type: 'category', data: groups, axisLabel: { rotate: 40 } },
    yAxis: { type: 'category', data: genes },
    visualMap: {
      min: 0,
      max: max || 1,
      dimension: 2,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      text: [labels.mean, ''],
      inRange: { color: ['#dcdcdc', '#ef6548', '#4a0000'] },
    },
    series: [{ type: 'scatter', data, symbolSize: (v: number[]) => 4 + 22 * Math.sqrt(v[3]!) }],
  };
}

/** Heatmap of mean expression per group, z-scored per gene (rows). */
export function heatmapOption(
  genes: string[],
  groups: string[],
  mean: number[][],
  zLabel: string,
): ChartOption {
  const data: number[][] = [];
  genes.forEach((_, gi) => {
    const row = mean[gi]!;
    const mu = row.reduce((a, b) => a + b, 0) / row.length;
    const sd = Math.sqrt(row.reduce((a, b) => a + (b - mu) ** 2, 0) / Math.max(1, row.length - 1)) || 1;
    row.forEach((v, ci) => data.push([ci, gi, Number(((v - mu) / sd).toFixed(3))]));
  });
  return {
    animation: false,
    tooltip: { position: 'top' },
    grid: { left: 90, right: 100, top: 20, bottom: 90 },
    xAxis: { type: 'category', data: groups, axisLabel: { rotate: 40 } },
    yAxis: { type: 'category', data: genes },
    visualMap: {
      min: -2,
      max: 2,
      calculable: true,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      text: [zLabel, ''],
      inRange: { color: ['#2166ac', '#f7f7f7', '#b2182b'] },
    },
    series: [{ type: 'heatmap', data }],
  };
}
