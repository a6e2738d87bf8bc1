import type { Level, FigureData } from './data';
import { cellsByCode } from './data';

import type { Label } from './labels';
import { PNG_SCALE, rasterScatter, renderSvg, withImage, type Figure } from './render';
import { colours, figure, stem, titleOf, violinOption } from './charts';

/**
 * The result's own figures (issue 21): each 2-D embedding coloured by each level, QC violins per
 * sample, the top-markers dot plot and the composition of each level by sample.
 */
/** Above this many cells an embedding's points are drawn into a PNG embedded in the SVG. */
export const RASTER_MIN_CELLS = 20_000;
/** Levels with more labels are not drawn (a legend of hundreds of entries says nothing). */
const MAX_LABELS = 60;
const QC_METRICS = [
  'n_genes_by_counts',
  'total_counts',
  'pct_counts_mito',
  'pct_counts_ribo',
  'doublet_score',
];
const EMBEDDING_NAME: Record<string, string> = {
  umap: 'UMAP',
  tsne: 't-SNE',
  spatial: 'Spatial',
  pca: 'PCA',
};

const drawable = (l: Level) => l.labels.length >= 1 && l.labels.length <= MAX_LABELS;

function range(v: Float32Array, d: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = d; i < v.length; i += 2) {
    const x = v[i]!;
    if (!Number.isFinite(x)) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  const pad = (hi - lo || 1) * 0.03;
  return [lo - pad, hi + pad];
}

export async function embeddingFigure(
  emb: { name: string; values: Float32Array },
  level: Level,
  t: Label,
): Promise<Figure> {
  const label = EMBEDDING_NAME[emb.name] ?? emb.name;
  const n = emb.values.length / 2;
  const plot = { left: 70, top: 60, size: 600 };
  const legendRows = level.labels.length;
  const width = plot.left + plot.size + 300;
  const height = Math.max(plot.top + plot.size + 70, 80 + legendRows * 18);
  const [x0, x1] = range(emb.values, 0);
  const [y0, y1] = range(emb.values, 1);
  const fill = colours(level.labels.length);
  const raster = n > RASTER_MIN_CELLS;
  const groups = cellsByCode(level);
  const option = {
    title: titleOf(t('figures.embedding', { embedding: label, level: level.key })),
    color: fill,
    grid: { left: plot.left, top: plot.top, width: plot.size, height: plot.size },
    xAxis: {
      type: 'value' as const,
      min: x0,
      max: x1,
      name: `${label} 1`,
      nameLocation: 'middle' as const,
      nameGap: 28,
      splitLine: { show: false },
      axisLine: { onZero: false },
      axisLabel: { show: false },
      axisTick: { show: false },
    },
    yAxis: {
      type: 'value' as const,
      min: y0,
      max: y1,
      name: `${label} 2`,
      nameLocation: 'middle' as const,
      nameGap: 20,
      splitLine: { show: false },
      axisLine: { onZero: false },
      axisLabel: { show: false },
      axisTick: { show: false },
    },
    legend: {
      orient: 'vertical' as const,
      left: plot.left + plot.size + 30,
      top: plot.top,
      itemWidth: 10,
      itemHeight: 10,
      textStyle: { fontSize: 12 },
      data: level.labels,
    },
    series: level.labels.map((name, k) => ({
      type: 'scatter' as const,
      name,
      symbolSize: n > 5000 ? 2.5 : 4,
      itemStyle: { color: fill[k] },
      data: raster ? [] : groups[k]!.map((c) => [emb.values[2 * c]!, emb.values[2 * c + 1]!]),
    })),
  };
  let svg = renderSvg(option, width, height);
  if (raster) {
    const px = plot.size * PNG_SCALE;
    const x = new Float32Array(n);
    const y = new Float32Array(n);
    const colour = new Uint16Array(n);
    for (let c = 0; c < n; c++) {
      x[c] = ((emb.values[2 * c]! - x0) / (x1 - x0)) * px;
      y[c] = (1 - (emb.values[2 * c + 1]! - y0) / (y1 - y0)) * px;
      colour[c] = level.codes[c]! < level.labels.length ? level.codes[c]! : 0;
    }
    const href = await rasterScatter(px, px, { x, y, colour }, fill, 1.2 * PNG_SCALE);
    svg = withImage(svg, href, plot.left, plot.top, plot.size, plot.size);
  }
  return {
    name: `embedding/${stem(emb.name)}_by_${stem(level.key)}`,
    title: option.title.text,
    width,
    height,
    svg,
  };
}

function qcFigures(d: FigureData, t: Label): Figure[] {
  const sample = d.sample;
  const groups = sample ? cellsByCode(sample) : [Array.from({ length: d.nCells }, (_, i) => i)];
  const names = sample ? sample.labels : [t('figures.allCells')];
  return QC_METRICS.flatMap((key) => {
    const col = d.numeric.find((n) => n.key === key);
    if (!col) return [];
    const values = groups.map((cells) => cells.map((c) => col.values[c]!));
    const width = Math.max(700, 120 + names.length * 70);
    return [
      figure(
        `qc/${stem(key)}_violin`,
        t('figures.qc', { metric: key }),
        violinOption(names, values, key, t('figures.sample')),
        width,
        560,
      ),
    ];
  });
}

function dotPlot(d: FigureData, t: Label): Figure[] {
  const m = d.markers.find((x) => x.groupBy === 'cluster') ?? d.markers[0];
  if (!m?.rows.length) return [];
  const groups = [...new Set(m.rows.map((r) => r.cluster))];
  const genes: string[] = [];
  for (const g of groups) {
    const top = m.rows
      .filter((r) => r.cluster === g && r.log2fc > 0 && r.padj < 0.05)
      .sort((a, b) => b.log2fc - a.log2fc)
      .slice(0, 3);
    for (const r of top) if (!genes.includes(r.gene) && genes.length < 45) genes.push(r.gene);
  }
  if (!genes.length) return [];
  const at = new Map(m.rows.map((r) => [`${r.cluster}\u0000${r.gene}`, r]));
  const pctScale = m.rows.every((r) => r.pct1 <= 1) ? 100 : 1;
  const data: [number, number, number, number][] = [];
  let maxExpr = 0;
  groups.forEach((g, i) =>
    genes.forEach((gene, j) => {
      const r = at.get(`${g}\u0000${gene}`);
      if (!r) return;
      data.push([j, i, r.pct1 * pctScale, r.avgExpr]);
      maxExpr = Math.max(maxExpr, r.avgExpr);
    }),
  );
  const width = Math.max(800, 260 + genes.length * 22);
  const height = Math.max(420, 200 + groups.length * 24);
  return [
    figure(
      `markers/dotplot_${stem(m.groupBy)}`,
      t('figures.dotplot', { level: m.groupBy }),
      {
        grid: { left: 140, right: 140, top: 60, bottom: 110 },
        xAxis: {
          type: 'category',
          data: genes,
          name: t('figures.gene'),
          nameLocation: 'middle',
          nameGap: 80,
          axisLabel: { rotate: 60, fontSize: 11 },
          splitLine: { show: true },
        },
        yAxis: {
          type: 'category',
          data: groups,
          name: m.groupBy,
          nameLocation: 'middle',
          nameGap: 100,
          splitLine: { show: true },
        },
        visualMap: {
          dimension: 3,
          min: 0,
          max: maxExpr || 1,
          right: 10,
          top: 'middle',
          text: [t('figures.avgExpr'), ''],
          inRange: { color: ['#d9d9d9', '#fdae61', '#b2182b'] },
        },
        series: [
          {
            type: 'scatter',
            name: t('figures.pctExpressing'),
            data,
            symbolSize: (v: number[]) => 2 + Math.sqrt(Math.max(0, v[2]!)) * 2,
          },
        ],
      },
      width,
      height,
    ),
  ];
}

function composition(d: FigureData, t: Label): Figure[] {
  const sampleCells = d.sample ? cellsByCode(d.sample) : [Array.from({ length: d.nCells }, (_, i) => i)];
  const samples = d.sample ? d.sample.labels : [t('figures.allCells')];
  return d.levels
    .filter((l) => l !== d.sample && drawable(l))
    .map((l) => {
      const fill = colours(l.labels.length);
      const share = sampleCells.map((cells) => {
        const n = new Array<number>(l.labels.length).fill(0);
        for (const c of cells) if (l.codes[c]! < n.length) n[l.codes[c]!]!++;
        return n.map((x) => (cells.length ? (100 * x) / cells.length : 0));
      });
      return figure(
        `composition/${stem(l.key)}_by_sample`,
        t('figures.composition', { level: l.key }),
        {
          color: fill,
          grid: { left: 80, right: 260, top: 60, bottom: 100 },
          legend: { orient: 'vertical', right: 10, top: 60, itemWidth: 10, itemHeight: 10, data: l.labels },
          xAxis: {
            type: 'category',
            data: samples,
            name: t('figures.sample'),
            nameLocation: 'middle',
            nameGap: 70,
            axisLabel: { rotate: samples.length > 6 ? 40 : 0 },
          },
          yAxis: {
            type: 'value',
            max: 100,
            name: t('figures.fraction'),
            nameLocation: 'middle',
            nameGap: 50,
          },
          series: l.labels.map((name, k) => ({
            type: 'bar',
            stack: 'all',
            name,
            data: share.map((s) => Math.round(s[k]! * 100) / 100),
          })),
        },
        Math.max(700, 380 + samples.length * 60),
        Math.max(560, 100 + l.labels.length * 18),
      );
    });
}

export async function resultFigures(d: FigureData, t: Label): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const e of d.embeddings)
    for (const l of d.levels.filter(drawable)) out.push(await embeddingFigure(e, l, t));
  out.push(...qcFigures(d, t), ...dotPlot(d, t), ...composition(d, t));
  return out;
}
