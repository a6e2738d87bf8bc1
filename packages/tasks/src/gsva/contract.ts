import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { geneSetSource } from '@cellcloud/contracts/tasks/enrichment-common';
import { geneSetTaskFields } from '../_shared/contract/enrichment';

/**
 * GSVA (docs/methods/gsva.md): Gaussian-kernel CDF per gene, rank scores per column, max-difference
 * Kolmogorov–Smirnov-like enrichment (GSVA 1.46 defaults: kcdf Gaussian, tau 1, mx.diff TRUE) on
 * either per-group pseudobulk columns (log1p of the mean of expm1(normalized) per group of
 * `groupBy`) or per cell (≤ maxCells). Outputs:
 *   tables/gsva.csv      ID, Description, setSize, sd, then one column per group/cell; rows by sd (highest first)
 *   data/heatmap.json    top `showSets` rows, row-scaled, for the heat map
 */
export const gsvaParams = z
  .object({
    groupBy: groupByKey.default('cluster'),
    mode: z.enum(['pseudobulk', 'cells']).default('pseudobulk'),
    library: geneSetSource.default('hallmark'),
    /** Term IDs to score (empty: every set of the library within the size bounds). */
    sets: z.array(z.string().max(500)).max(500).default([]),
    minSetSize: z.number().int().min(1).default(1),
    maxSetSize: z.number().int().min(1).default(100_000),
    maxCells: z.number().int().min(2).max(20_000).default(5_000),
    showSets: z.number().int().min(1).max(200).default(30),
  })
  .strict();
export type GsvaParams = z.infer<typeof gsvaParams>;

export const gsvaSummary = z
  .object({
    mode: z.enum(['pseudobulk', 'cells']),
    columns: z.number().int(),
    sets: z.number().int(),
    genes: z.number().int(),
    mapping: z.enum(['human', 'orthologue-table', 'uppercase-symbol']),
  })
  .strict();
export type GsvaSummary = z.infer<typeof gsvaSummary>;

export const definition = defineTask({
  name: 'gsva',
  titleKey: 'gsva.title',
  displayName: { 'en-US': 'GSVA', 'zh-CN': 'GSVA' },
  order: 50,
  method: {
    'en-US':
      'Each gene set was scored per group (pseudobulk) or per cell with GSVA: a Gaussian-kernel estimate of the expression distribution of each gene, ranks per column and the maximum-difference Kolmogorov–Smirnov-like enrichment statistic (GSVA 1.46 defaults).',
    'zh-CN':
      '用 GSVA 按分组（拟批量）或按细胞为每个基因集打分：高斯核估计每个基因的表达分布，按列排序，计算最大差值的类 Kolmogorov–Smirnov 富集统计量（GSVA 1.46 默认参数）。',
    citations: [
      'Hänzelmann S, Castelo R, Guinney J. GSVA: gene set variation analysis for microarray and RNA-seq data. BMC Bioinformatics 2013;14:7.',
    ],
  },
  params: gsvaParams,
  summary: gsvaSummary,
  ...geneSetTaskFields('gsva'),
  fields: {
    groupBy: { kind: 'level' },
    minSetSize: { advanced: true },
    maxSetSize: { advanced: true },
    maxCells: { advanced: true },
    showSets: { advanced: true },
  },
});
