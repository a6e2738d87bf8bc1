import type { FigureOption as ChartOption } from '../../_shared/figures/option';

/** data/running.json of the gsea task (`../engine/index.ts`). */
export interface GseaRunning {
  nGenes: number;
  metric: [number, number][];
  terms: {
    ID: string;
    Description: string;
    ES: number;
    NES: number;
    pvalue: number;
    pAdjust: number;
    hits: number[];
    points: [number, number][];
  }[];
}

const e = (v: number) => (v < 1e-3 ? v.toExponential(2) : v.toFixed(4));

/** Running enrichment score (top), hit positions (middle), ranked metric (bottom), with NES / p / p.adjust. */
export function runningOption(
  r: GseaRunning,
  i: number,
  labels: { score: string; rank: string; metric: string },
): ChartOption {
  const term = r.terms[i]!;
  return {
    animation: false,
    title: {
      text: term.Description,
      subtext: `NES ${term.NES.toFixed(3)}   p ${e(term.pvalue)}   p.adjust ${e(term.pAdjust)}`,
      left: 'center',
      textStyle: { fontSize: 13 },
    },
    tooltip: { trigger: 'axis' },
    grid: [
      { left: 60, right: 20, top: 70, height: '45%' },
      { left: 60, right: 20, top: '63%', height: '8%' },
      { left: 60, right: 20, top: '75%', height: '17%' },
    ],
    xAxis: [
      { type: 'value', gridIndex: 0, min: 0, max: r.nGenes, axisLabel: { show: false } },
      { type: 'value', gridIndex: 1, min: 0, max: r.nGenes, axisLabel: { show: false } },
      {
        type: 'value',
        gridIndex: 2,
        min: 0,
        max: r.nGenes,
        name: labels.rank,
        nameLocation: 'middle',
        nameGap: 24,
      },
    ],
    yAxis: [
      { type: 'value', gridIndex: 0, name: labels.score },
      { type: 'value', gridIndex: 1, show: false, min: 0, max: 1 },
      { type: 'value', gridIndex: 2, name: labels.metric },
    ],
    series: [
      {
        type: 'line',
        xAxisIndex: 0,
        yAxisIndex: 0,
        data: term.points,
        showSymbol: false,
        lineStyle: { color: '#2ca02c', width: 2 },
      },
      {
        type: 'scatter',
        xAxisIndex: 1,
        yAxisIndex: 1,
        data: term.hits.map((h) => [h, 0.5]),
        symbol: 'rect',
        symbolSize: [1, 22],
        itemStyle: { color: '#333' },
      },
      {
        type: 'line',
        xAxisIndex: 2,
        yAxisIndex: 2,
        data: r.metric,
        showSymbol: false,
        areaStyle: { color: '#bbb' },
        lineStyle: { color: '#888', width: 1 },
      },
    ],
  };
}

/** fgsea plotGseaTable-like overview: one row per term with its hit positions, labelled with NES and p.adjust. */
export function tableOption(r: GseaRunning, rankLabel: string): ChartOption {
  const terms = [...r.terms].reverse();
  const cut = (s: string) => (s.length > 44 ? `${s.slice(0, 43)}…` : s);
  return {
    animation: false,
    tooltip: {},
    grid: { left: 320, right: 170, top: 20, bottom: 40 },
    xAxis: { type: 'value', min: 0, max: r.nGenes, name: rankLabel, nameLocation: 'middle', nameGap: 24 },
    yAxis: [
      { type: 'category', data: terms.map((t) => cut(t.Description)) },
      {
        type: 'category',
        position: 'right',
        data: terms.map((t) => `NES ${t.NES.toFixed(2)}  padj ${e(t.pAdjust)}`),
      },
    ],
    series: terms.map((t, row) => ({
      type: 'scatter' as const,
      data: t.hits.map((h) => [h, row]),
      symbol: 'rect',
      symbolSize: [1, 14],
      itemStyle: { color: t.NES >= 0 ? '#d62728' : '#1f77b4' },
    })),
  };
}
