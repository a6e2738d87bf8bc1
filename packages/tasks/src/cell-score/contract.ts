import { z } from 'zod';
import { defineTask } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { seedParam } from '../_shared/contract/schemas';

/**
 * Cell score (docs/methods/cell-score.md): one score per cell for one gene set, by Seurat
 * `AddModuleScore` (24 expression bins, 100 control genes per gene, seeded) and/or a rank-based
 * UCell score (maxRank 1500). The gene set is a built-in list (`builtinSet`), genes typed in
 * (`genes`) or an uploaded csv (`uploads.geneSet`: one gene per line, no header —
 * docs/product/validation.md). Outputs: `tables/scores.csv` (barcode + one column per method) and
 * per-cell numeric columns `<name>_ModuleScore` / `<name>_UCell` for the explorer.
 */

/** Built-in gene sets: small documented lists (`engine/gene-sets.ts`) or a Hallmark set (`hallmark:<NAME>`). */
export const CELL_SCORE_BUILTIN_SETS = [
  'tCell',
  'bCell',
  'nkCell',
  'monocyte',
  'platelet',
  'cellCycleS',
  'cellCycleG2M',
] as const;

export const cellScoreParams = z
  .object({
    method: z.enum(['both', 'moduleScore', 'ucell']).default('both'),
    /** A built-in list name, or `hallmark:HALLMARK_…` (MSigDB Hallmark v7.0 from the resources). */
    builtinSet: z
      .string()
      .max(200)
      .regex(/^(tCell|bCell|nkCell|monocyte|platelet|cellCycleS|cellCycleG2M|hallmark:[A-Z0-9_]+)$/)
      .optional(),
    /** Gene symbols or Ensembl ids typed in (used when no built-in set and no upload). */
    genes: z.array(z.string().min(1).max(100)).min(1).max(5000).optional(),
    /** Column prefix of the per-cell scores (explorer annotation name rules: letters, digits, _, no leading digit). */
    name: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z_][A-Za-z0-9_.]*$/)
      .default('gset'),
    nBins: z.number().int().min(2).max(100).default(24),
    nControl: z.number().int().min(1).max(1000).default(100),
    maxRank: z.number().int().min(10).max(20000).default(1500),
    seed: seedParam(1),
  })
  .strict();
export type CellScoreParams = z.infer<typeof cellScoreParams>;

export const cellScoreSummary = z.object({
  name: z.string(),
  source: z.enum(['builtin', 'upload', 'genes']),
  setName: z.string(),
  genesGiven: z.number().int(),
  genesUsed: z.array(z.string()),
  genesMissing: z.array(z.string()),
  methods: z.array(z.enum(['moduleScore', 'ucell'])),
  /** Per-cell obs keys written, by method. */
  columns: z.record(z.string(), z.string()),
  nControlGenes: z.number().int().optional(),
});
export type CellScoreSummary = z.infer<typeof cellScoreSummary>;

export const definition = defineTask({
  name: 'cell-score',
  titleKey: 'cellScore.title',
  displayName: {
    'en-US': 'Cell score (AddModuleScore / UCell)',
    'zh-CN': '细胞评分（AddModuleScore / UCell）',
  },
  order: 10,
  method: {
    'en-US':
      'Each cell was scored for the gene set with Seurat-style AddModuleScore (average expression of the set minus that of control genes drawn from the same expression bins) and/or UCell (Mann–Whitney U statistic of the set genes among the top-ranked genes of the cell).',
    'zh-CN':
      '对每个细胞计算基因集评分：AddModuleScore（基因集平均表达减去来自相同表达分箱的对照基因平均表达，Seurat 方法）和/或 UCell（基于细胞内基因排名的 Mann–Whitney U 统计量）。',
    citations: [
      'Tirosh I, et al. Dissecting the multicellular ecosystem of metastatic melanoma by single-cell RNA-seq. Science 2016;352:189–196.',
      'Andreatta M, Carmona SJ. UCell: robust and scalable single-cell gene signature scoring. CSBJ 2021;19:3796–3798.',
    ],
  },
  params: cellScoreParams,
  summary: cellScoreSummary,
  permission: 'exploreGeneExpression',
  species: 'any',
  tab: 'geneExpression',
  timeoutMinutes: 30,
  uploads: [
    { name: 'geneSet', labelKey: 'cellScore.uploads.geneSet', accept: '.csv,.txt', maxBytes: 1_000_000 },
  ],
  fields: {
    builtinSet: { kind: 'options', values: CELL_SCORE_BUILTIN_SETS },
    genes: { kind: 'genes' },
    seed: { kind: 'hidden' },
    nBins: { advanced: true },
    nControl: { advanced: true },
    maxRank: { advanced: true },
  },
  messages: taskFailures('cellScore', en.failures, zh.failures),
});
