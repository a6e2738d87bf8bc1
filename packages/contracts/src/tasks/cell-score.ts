import { z } from 'zod';
import { defineTask } from './define';

/**
 * Cell score (SPEC §3 task "cell score (gene set enrichment)", METHODS §4): one score per cell for
 * one gene set, by Seurat `AddModuleScore` (24 expression bins, 100 control genes per gene, seeded)
 * and/or a rank-based UCell score (maxRank 1500). The gene set is a built-in list
 * (`builtinSet`), genes typed in (`genes`) or an uploaded csv (`uploads.geneSet`: one gene per
 * line, no header — SPEC §5). Outputs: `tables/scores.csv` (barcode + one column per method) and
 * per-cell numeric columns `<name>_ModuleScore` / `<name>_UCell` for the explorer.
 */

/** Built-in gene sets: small documented lists (engine `tasks/cell-score/gene-sets.ts`) or a Hallmark set (`hallmark:<NAME>`). */
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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
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

export const cellScoreTask = defineTask({
  name: 'cell-score',
  titleKey: 'cellScore.title',
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
  },
  messages: {
    'en-US': {
      'cellScore.noGeneSet': 'Choose a built-in gene set, type genes or upload a gene set file.',
      'cellScore.twoGeneSets': 'Give only one gene set (built-in, typed genes or an uploaded file).',
      'cellScore.unknownSet': 'There is no built-in gene set "{set}".',
      'cellScore.tooFewGenes':
        'Only {used} of the {given} genes were found in this dataset; at least {min} are needed.',
    },
    'zh-CN': {
      'cellScore.noGeneSet': '请选择内置基因集、输入基因或上传基因集文件。',
      'cellScore.twoGeneSets': '只能提供一个基因集（内置、输入的基因或上传的文件）。',
      'cellScore.unknownSet': '没有名为“{set}”的内置基因集。',
      'cellScore.tooFewGenes': '所给的 {given} 个基因中只有 {used} 个在该数据集中找到；至少需要 {min} 个。',
    },
  },
});
