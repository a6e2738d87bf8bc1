import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEG_GROUP_COLUMNS, GSEA_COLUMNS, ORA_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import type { TaskTable } from '@cellcloud/contracts/tasks/csv';
import type { FigureData } from '../src/jobs/figures/data';
import { labelsOf } from '../src/jobs/figures/labels';
import { taskFigures } from '../src/jobs/figures/task-figures';
import { svgToPng } from '../src/jobs/figures/render';
import { embeddingFigure, RASTER_MIN_CELLS } from '../src/jobs/figures/result-figures';
import { TEST_DB } from './support/harness';

/**
 * Issue 21: an embedding with more than RASTER_MIN_CELLS cells is drawn as one embedded PNG of its
 * points inside an SVG with vector axes and legend — never one SVG element per cell; each task
 * kind's key figure is drawn from its documented table columns. No database: runs once (the
 * PGlite pass).
 */
describe.skipIf(TEST_DB !== 'pglite')('server-rendered figures', () => {
  it('draws 60,000 cells as an <image> in a small SVG whose PNG renders at twice its size', async () => {
    const n = 60_000;
    const values = new Float32Array(2 * n);
    const codes = new Uint16Array(n);
    for (let c = 0; c < n; c++) {
      const k = c % 3;
      const a = (c * 2.399963) % (2 * Math.PI);
      const r = Math.sqrt((c % 997) / 997);
      values[2 * c] = k * 4 + r * Math.cos(a);
      values[2 * c + 1] = (k % 2) * 3 + r * Math.sin(a);
      codes[c] = k;
    }
    expect(n).toBeGreaterThan(RASTER_MIN_CELLS);
    const f = await embeddingFigure(
      { name: 'umap', values },
      { key: 'cluster', labels: ['0', '1', '2'], codes },
      labelsOf('en-US'),
    );
    expect(f.svg.match(/<image /g)).toHaveLength(1);
    expect(f.svg).toContain('href="data:image/png;base64,');
    // axes, legend and title only: far fewer elements than cells, and a modest file
    expect((f.svg.match(/<(path|circle|text)\b/g) ?? []).length).toBeLessThan(200);
    expect(f.svg.length).toBeLessThan(2_000_000);
    for (const label of ['0', '1', '2']) expect(f.svg).toContain(`>${label}</text>`);
    const png = await sharp(await svgToPng(f.svg)).metadata();
    expect([png.width, png.height]).toEqual([2 * f.width, 2 * f.height]);
  });

  it('draws the key figure of each task kind from its documented table columns, in both languages', async () => {
    const table = (columns: readonly string[], rows: (string | number)[][]): TaskTable => ({
      columns: [...columns],
      rows,
    });
    const genes = ['CD3D', 'MS4A1', 'LYZ', 'NKG7'];
    const deg = table(
      DEG_GROUP_COLUMNS,
      genes.map((g, i) => ['B', g, 1, 2 - i * 1.5, 0.5, 0.1, 3, 10 ** -(i + 2), 10 ** -(i + 1), 1]),
    );
    const ora = table(
      ORA_COLUMNS,
      ['T cell activation', 'B cell receptor signaling'].map((d, i) => [
        `GO:${i}`,
        d,
        '3/10',
        '30/9000',
        1e-5,
        1e-4 * (i + 1),
        1e-4,
        'CD3D/CD3E',
        3,
      ]),
    );
    const gsea = table(
      GSEA_COLUMNS,
      ['Interferon alpha', 'Oxidative phosphorylation'].map((d, i) => [
        `H${i}`,
        d,
        50,
        0.5,
        i ? -1.8 : 2.1,
        1e-3,
        0.01,
        0.01,
        100,
        'tags=40%',
        'IFI6/ISG15',
      ]),
    );
    const types = ['B', 'T', 'Mono'];
    const cnvScores = table(
      [
        'cell',
        'type',
        'sample',
        'cluster',
        'subclone',
        'reference',
        'CNVscore',
        'CNVscore_SS',
        'CNVscore_SD',
      ],
      Array.from({ length: 30 }, (_, i) => [
        `c${i}`,
        types[i % 3]!,
        's1',
        '0',
        'A',
        'False',
        (i % 7) / 10,
        0,
        0,
      ]),
    );
    const d: FigureData = {
      nCells: 0,
      embeddings: [],
      levels: [],
      numeric: [],
      sample: undefined,
      markers: [],
      de: [
        {
          name: 'B vs rest',
          rows: deg.rows.map((r) => ({
            cluster: 'B',
            gene: String(r[1]),
            avgExpr: 1,
            log2fc: Number(r[3]),
            pct1: 0.5,
            pct2: 0.1,
            zscore: 3,
            pval: Number(r[7]),
            padj: Number(r[8]),
          })),
        },
      ],
      tasks: [
        { task: 'deg-groups', name: 'deg-groups_1', tables: { group1: deg }, numeric: [] },
        { task: 'enrich', name: 'enrich_1', tables: { ora_group1_GO_BP: ora }, numeric: [] },
        { task: 'gsea', name: 'gsea_1', tables: { gsea }, numeric: [] },
        {
          task: 'interaction',
          name: 'interaction_1',
          tables: {
            count_network: table(
              ['SOURCE', 'TARGET', 'count'],
              types.flatMap((a, i) => types.map((b, j) => [a, b, i + j])),
            ),
          },
          numeric: [],
        },
        {
          task: 'regulons',
          name: 'regulons_1',
          tables: {
            rss: table(
              ['cell_type', 'PAX5(+)', 'SPI1(+)', 'TCF7(+)'],
              types.map((t, i) => [t, 0.6 - i / 10, 0.3, 0.2 + i / 10]),
            ),
          },
          numeric: [],
        },
        { task: 'cnv', name: 'cnv_1', tables: { cnv_scores: cnvScores }, numeric: [] },
        {
          task: 'ith',
          name: 'ith_1',
          tables: {
            ITH_score_stat: table(
              ['type', 'cells', 'pairs', 'mean', 'median', 'q1', 'q3', 'iqr'],
              types.map((t, i) => [t, 10, 45, 0.2 * (i + 1), 0.2, 0.1, 0.3, 0.2]),
            ),
          },
          numeric: [],
        },
        {
          task: 'monocle2',
          name: 'monocle2_1',
          tables: {
            cells: table(
              ['barcode', 'Cluster', 'Sample', 'State', 'Pseudotime', 'dim_1', 'dim_2'],
              Array.from({ length: 20 }, (_, i) => [`c${i}`, '0', 's1', 1, i, i, i % 5]),
            ),
          },
          numeric: [],
        },
      ],
    };
    const en = taskFigures(d, labelsOf('en-US'));
    expect(en.map((f) => f.name)).toEqual([
      'de/volcano_B_vs_rest',
      'de/volcano_deg-groups_1',
      'tasks/enrich_1_ora_group1_GO_BP',
      'tasks/gsea_1_nes',
      'tasks/interaction_1_interaction_count',
      'tasks/regulons_1_rss',
      'tasks/cnv_1_cnv_score',
      'tasks/ith_1_ith',
      'tasks/monocle2_1_pseudotime',
    ]);
    const svg = (name: string) => en.find((f) => f.name === name)!.svg;
    expect(svg('tasks/enrich_1_ora_group1_GO_BP')).toContain('T cell activation');
    expect(svg('tasks/gsea_1_nes')).toContain('Interferon alpha');
    expect(svg('tasks/regulons_1_rss')).toContain('PAX5(+)');
    expect(svg('de/volcano_B_vs_rest')).toContain('Volcano plot: B vs rest');
    for (const f of en) {
      const png = await sharp(await svgToPng(f.svg)).metadata();
      expect([png.width, png.height], f.name).toEqual([2 * f.width, 2 * f.height]);
    }
    const zh = taskFigures(d, labelsOf('zh-CN'), 'zh-CN');
    expect(zh.find((f) => f.name === 'tasks/interaction_1_interaction_count')!.svg).toContain(
      '细胞类型间的显著相互作用数',
    );
    expect(zh.find((f) => f.name === 'tasks/cnv_1_cnv_score')!.svg).toContain('各组 CNV 评分');
  });
});
