import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { TaskTable } from '@cellcloud/contracts/tasks/csv';
import type { FigureData } from './data';
import { numberColumn, textColumn } from './data';
import type { Locale } from '@cellcloud/contracts/locale';
import { messageLabel, TASK_FIGURES } from '@cellcloud/tasks/figures';
import { TASK_MESSAGES } from '@cellcloud/tasks/messages';
import { barOption, figure, heatmapOption, stem } from './charts';
import type { Label } from './labels';
import type { Figure } from './render';

/**
 * One key figure per completed task where its tables support it (issue 21): volcano for DE
 * (saved explorer comparisons and deg-groups), enrichment bars, GSEA NES bars, the interaction
 * count heat map, the RSS heat map of regulons, CNV / ITH scores by group, cell scores by cluster,
 * the Monocle 2 trajectory by pseudotime. A task with a folder in packages/tasks draws its own
 * (its `figures.ts`, the same option builders as its web view, labels from its messages);
 * `byTask` keeps the builders of the tasks not moved yet (MIGRATION SHIM, issue 30).
 */
type TaskFigure = (task: FigureData['tasks'][number], d: FigureData, t: Label) => Figure[];

const SIG_P = 0.05;
const SIG_FC = 1;

export function volcano(
  name: string,
  stemName: string,
  rows: Pick<DegRow, 'gene' | 'log2fc' | 'padj'>[],
  t: Label,
): Figure {
  const up: number[][] = [];
  const down: number[][] = [];
  const ns: number[][] = [];
  for (const r of rows) {
    if (!Number.isFinite(r.log2fc) || !Number.isFinite(r.padj)) continue;
    const p = [r.log2fc, -Math.log10(Math.max(r.padj, 1e-300))];
    (r.padj < SIG_P && r.log2fc >= SIG_FC ? up : r.padj < SIG_P && r.log2fc <= -SIG_FC ? down : ns).push(p);
  }
  return figure(
    `de/volcano_${stemName}`,
    t('figures.volcano', { name }),
    {
      grid: { left: 80, right: 160, top: 60, bottom: 70 },
      legend: { orient: 'vertical', right: 10, top: 60 },
      xAxis: { type: 'value', name: t('figures.log2fc'), nameLocation: 'middle', nameGap: 30 },
      yAxis: { type: 'value', name: t('figures.negLog10Padj'), nameLocation: 'middle', nameGap: 50 },
      series: [
        { type: 'scatter', name: t('figures.ns'), symbolSize: 3, itemStyle: { color: '#bdbdbd' }, data: ns },
        { type: 'scatter', name: t('figures.up'), symbolSize: 4, itemStyle: { color: '#d62728' }, data: up },
        {
          type: 'scatter',
          name: t('figures.down'),
          symbolSize: 4,
          itemStyle: { color: '#1f77b4' },
          data: down,
        },
      ],
    },
    860,
    640,
  );
}

const degRows = (tb: TaskTable | undefined) => {
  if (!tb) return [];
  const gene = textColumn(tb, 'gene') ?? [];
  const fc = numberColumn(tb, 'log2fc') ?? [];
  const padj = numberColumn(tb, 'padj') ?? [];
  return gene.map((g, i) => ({ gene: g, log2fc: fc[i]!, padj: padj[i]! }));
};

/** Rows of `tb` ordered by `col` ascending (NaN last), first `n`. */
function topBy(tb: TaskTable, col: string, n: number): number[] {
  const v = numberColumn(tb, col) ?? [];
  return v
    .map((x, i) => [x, i] as const)
    .filter(([x]) => Number.isFinite(x))
    .sort((a, b) => a[0] - b[0])
    .slice(0, n)
    .map(([, i]) => i);
}

const byTask: Record<string, TaskFigure> = {
  'deg-groups': (k, _d, t) =>
    k.tables.group1 ? [volcano(k.name, stem(k.name), degRows(k.tables.group1), t)] : [],
  enrich: (k, _d, t) =>
    Object.entries(k.tables)
      .filter(([n, tb]) => n.startsWith('ora_') && tb.rows.length)
      .slice(0, 4)
      .map(([n, tb]) => {
        const idx = topBy(tb, 'p.adjust', 15);
        const desc = textColumn(tb, 'Description')!;
        const p = numberColumn(tb, 'p.adjust')!;
        return figure(
          `tasks/${stem(k.name)}_${stem(n)}`,
          t('figures.enrichment', { name: n.slice(4) }),
          barOption(
            idx.map((i) => desc[i]!),
            idx.map((i) => -Math.log10(Math.max(p[i]!, 1e-300))),
            t('figures.negLog10Padj'),
            () => '#4e79a7',
          ),
          1000,
          Math.max(400, 140 + idx.length * 26),
        );
      }),
  gsea: (k, _d, t) => {
    const tb = k.tables.gsea;
    if (!tb?.rows.length) return [];
    const idx = topBy(tb, 'p.adjust', 20);
    const desc = textColumn(tb, 'Description')!;
    const nes = numberColumn(tb, 'NES')!;
    return [
      figure(
        `tasks/${stem(k.name)}_nes`,
        t('figures.gsea'),
        barOption(
          idx.map((i) => desc[i]!),
          idx.map((i) => nes[i]!),
          'NES',
          (v) => (v >= 0 ? '#d62728' : '#1f77b4'),
        ),
        1000,
        Math.max(400, 140 + idx.length * 26),
      ),
    ];
  },
  interaction: (k, _d, t) => {
    const tb = k.tables.count_network;
    if (!tb?.rows.length) return [];
    const src = textColumn(tb, 'SOURCE')!;
    const dst = textColumn(tb, 'TARGET')!;
    const n = numberColumn(tb, 'count')!;
    const types = [...new Set([...src, ...dst])];
    const m = types.map(() => types.map(() => 0));
    src.forEach((s, i) => (m[types.indexOf(s)]![types.indexOf(dst[i]!)] = n[i]!));
    const size = 300 + types.length * 28;
    return [
      figure(
        `tasks/${stem(k.name)}_interaction_count`,
        t('figures.interaction'),
        heatmapOption(types, types, m, t('figures.target'), t('figures.source')),
        size + 120,
        size,
      ),
    ];
  },
  regulons: (k, _d, t) => {
    const tb = k.tables.rss;
    if (!tb?.rows.length) return [];
    const types = textColumn(tb, 'cell_type')!;
    const regs = tb.columns.slice(1);
    const chosen = new Set<number>();
    for (const r of tb.rows) {
      const order = regs.map((_, j) => j).sort((a, b) => Number(r[b + 1]) - Number(r[a + 1]));
      for (const j of order.slice(0, 5)) if (chosen.size < 40) chosen.add(j);
    }
    const cols = [...chosen];
    const cells = tb.rows.map((r) => cols.map((j) => Number(r[j + 1])));
    return [
      figure(
        `tasks/${stem(k.name)}_rss`,
        t('figures.rss'),
        heatmapOption(
          types,
          cols.map((j) => regs[j]!),
          cells,
          '',
          t('figures.cellType'),
        ),
        300 + cols.length * 24,
        300 + types.length * 26,
      ),
    ];
  },


};

/** The figures a task folder's `figures.ts` builds, rendered, labels in `lang`. */
function folderFigures(k: FigureData['tasks'][number], d: FigureData, lang: Locale): Figure[] | undefined {
  const own = TASK_FIGURES[k.task];
  const messages = TASK_MESSAGES[k.task];
  if (!own || !messages) return undefined;
  return own
    .export(k, d, messageLabel(messages[lang]))
    .map((f) => figure(f.name, f.title, f.option, f.width, f.height));
}

export function taskFigures(d: FigureData, t: Label, lang: Locale = 'en-US'): Figure[] {
  const out: Figure[] = [];
  for (const de of d.de) out.push(volcano(de.name, stem(de.name), de.rows, t));
  for (const k of d.tasks) out.push(...(folderFigures(k, d, lang) ?? byTask[k.task]?.(k, d, t) ?? []));
  return out;
}
