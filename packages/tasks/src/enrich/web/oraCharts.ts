import type { FigureOption as ChartOption } from '../../_shared/figures/option';
import type { OraPlotData } from '../contract';

export type { OraPlotData };

const short = (s: string, n = 48) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const padjColor = (p: number, min: number, max: number) => {
  const lo = Math.log10(Math.max(min, 1e-300));
  const hi = Math.log10(Math.max(max, 1e-300));
  const f = hi > lo ? (Math.log10(Math.max(p, 1e-300)) - lo) / (hi - lo) : 0;
  const r = Math.round(214 + (31 - 214) * f);
  const g = Math.round(39 + (119 - 39) * f);
  const b = Math.round(40 + (180 - 40) * f);
  return `rgb(${r},${g},${b})`;
};

/** enrichplot barplot: −log10(p.adjust) per term, most significant on top. */
export function barOption(d: OraPlotData, axis: string): ChartOption {
  const terms = [...d.terms].reverse();
  return {
    animation: false,
    tooltip: {},
    grid: { left: 320, right: 30, top: 20, bottom: 40 },
    xAxis: { type: 'value', name: axis, nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'category', data: terms.map((x) => short(x.Description)) },
    series: [
      {
        type: 'bar',
        data: terms.map((x) => ({
          value: x.logp,
          itemStyle: {
            color: padjColor(x.pAdjust, d.terms[0]?.pAdjust ?? 1, d.terms[d.terms.length - 1]?.pAdjust ?? 1),
          },
        })),
      },
    ],
  };
}

/** enrichplot dotplot: GeneRatio on x, size = Count, colour = p.adjust. */
export function dotOption(d: OraPlotData, labels: { geneRatio: string; count: string }): ChartOption {
  const terms = [...d.terms].reverse();
  const maxCount = Math.max(1, ...terms.map((x) => x.Count));
  return {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: [number, string, number, number] }).value;
        return `${v[1]}<br/>${labels.count}: ${v[2]}<br/>p.adjust: ${v[3].toExponential(2)}`;
      },
    },
    grid: { left: 320, right: 90, top: 20, bottom: 40 },
    xAxis: { type: 'value', name: labels.geneRatio, nameLocation: 'middle', nameGap: 26, scale: true },
    yAxis: { type: 'category', data: terms.map((x) => short(x.Description)) },
    visualMap: {
      type: 'continuous',
      dimension: 3,
      min: Math.min(...terms.map((x) => x.pAdjust)),
      max: Math.max(...terms.map((x) => x.pAdjust)),
      inRange: { color: ['#d62728', '#1f77b4'] },
      right: 0,
      top: 'middle',
      text: ['p.adjust', ''],
      calculable: false,
    },
    series: [
      {
        type: 'scatter',
        data: terms.map((x) => [x.GeneRatio, short(x.Description), x.Count, x.pAdjust]),
        symbolSize: (v: number[]) => 6 + (18 * (v[2] ?? 0)) / maxCount,
      },
    ],
  };
}

/** enrichplot heatplot: genes × terms, cells coloured by the gene's log2FC. */
export function heatOption(d: OraPlotData): ChartOption {
  const vals = d.heat.cells.map((c) => c[2]);
  const m = Math.max(0.5, ...vals.map(Math.abs));
  return {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: [number, number, number] }).value;
        return `${d.heat.genes[v[0]]} · ${d.heat.terms[v[1]]}<br/>log2FC ${v[2].toFixed(2)}`;
      },
    },
    grid: { left: 320, right: 90, top: 20, bottom: 90 },
    xAxis: { type: 'category', data: d.heat.genes, axisLabel: { rotate: 90, fontSize: 9 } },
    yAxis: { type: 'category', data: d.heat.terms.map((s) => short(s)) },
    visualMap: {
      min: -m,
      max: m,
      dimension: 2,
      inRange: { color: ['#1f77b4', '#f7f7f7', '#d62728'] },
      right: 0,
      top: 'middle',
      text: ['log2FC', ''],
      calculable: true,
    },
    series: [{ type: 'heatmap', data: d.heat.cells }],
  };
}

/** enrichplot emapplot: terms linked by the Jaccard similarity of their genes (≥ 0.2). */
export function emapOption(d: OraPlotData): ChartOption {
  const n = d.emap.nodes;
  const maxCount = Math.max(1, ...n.map((x) => x.Count));
  const min = Math.min(...n.map((x) => x.pAdjust));
  const max = Math.max(...n.map((x) => x.pAdjust));
  return {
    animation: false,
    tooltip: {},
    series: [
      {
        type: 'graph',
        layout: 'force',
        roam: true,
        force: { repulsion: 160, edgeLength: [40, 140], gravity: 0.1 },
        label: {
          show: true,
          fontSize: 9,
          formatter: (p: unknown) => short((p as { name: string }).name, 30),
        },
        data: n.map((x) => ({
          name: x.Description,
          value: x.Count,
          symbolSize: 10 + (30 * x.Count) / maxCount,
          itemStyle: { color: padjColor(x.pAdjust, min, max) },
        })),
        links: d.emap.edges.map(([a, b, w]) => ({
          source: a,
          target: b,
          value: w,
          lineStyle: { width: 1 + 5 * w, color: '#999', opacity: 0.6 },
        })),
      },
    ],
  };
}

/** enrichplot cnetplot: the top terms and their genes (gene nodes coloured by log2FC). */
export function cnetOption(d: OraPlotData): ChartOption {
  const nt = d.cnet.terms.length;
  const m = Math.max(0.5, ...d.cnet.genes.map((g) => Math.abs(g.log2fc)));
  const geneColor = (fc: number) => {
    const f = Math.max(-1, Math.min(1, fc / m));
    return f >= 0
      ? `rgb(${Math.round(247 - 33 * f)},${Math.round(247 - 208 * f)},${Math.round(247 - 207 * f)})`
      : `rgb(${Math.round(247 + 216 * f)},${Math.round(247 + 128 * f)},${Math.round(247 + 67 * f)})`;
  };
  return {
    animation: false,
    tooltip: {},
    series: [
      {
        type: 'graph',
        layout: 'force',
        roam: true,
        force: { repulsion: 80, edgeLength: 60, gravity: 0.08 },
        label: { show: true, fontSize: 9 },
        data: [
          ...d.cnet.terms.map((x) => ({
            name: short(x.Description, 36),
            symbolSize: 14 + 2 * Math.sqrt(x.Count),
            itemStyle: { color: '#e6a23c' },
          })),
          ...d.cnet.genes.map((g) => ({
            name: g.gene,
            value: g.log2fc,
            symbolSize: 8,
            itemStyle: { color: geneColor(g.log2fc), borderColor: '#666' },
          })),
        ],
        links: d.cnet.edges.map(([t, g]) => ({ source: t, target: nt + g, lineStyle: { color: '#bbb' } })),
      },
    ],
  };
}
