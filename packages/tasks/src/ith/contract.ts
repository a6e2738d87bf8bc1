import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import { labelList, seedParam, type ScoreBox, type ScorePair } from '../_shared/contract/schemas';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';

/**
 * Intra-tumour heterogeneity (docs/methods/ith.md, issue 17). Engine: ./engine/.
 * Tables: ITH_score_all (ITH_score, type), ITH_score_stat (type, cells, pairs, mean, median, q1,
 * q3, iqr), ITH_score_sig (group1, group2, method, p, p_adj, p_signif); data/box.json (IthBoxData).
 */
const label = z.string().min(1).max(500);

export const ithParams = z
  .object({
    /** Identity level: cell type, sample, group, or a CNV subclone column (cnv_subclone). */
    groupBy: groupByKey,
    /** Identities to score (default: every group with enough cells). */
    groups: labelList(0, 500).optional(),
    method: z.enum(['dist', 'iqr']).default('dist'),
    ncellMin: z.number().int().min(3).max(10000).default(20),
    ncellMax: z.number().int().min(10).max(5000).default(500),
    nPcs: z.number().int().min(2).max(100).default(20),
    nHvg: z.number().int().min(50).max(10000).default(2000),
    /** `--cmethod` of docs/methods/ith.md: t.test (Welch) or wilcox.test. */
    cmethod: z.enum(['ttest', 'wilcoxon']).default('ttest'),
    comparisons: z
      .array(z.object({ a: label, b: label }).strict())
      .max(50)
      .default([]),
    seed: seedParam(0),
  })
  .strict();
export type IthParams = z.infer<typeof ithParams>;

export const ithSummary = z.object({
  method: z.enum(['dist', 'iqr']),
  groupBy: z.string(),
  identities: z.array(
    z.object({
      type: z.string(),
      cells: z.number().int(),
      used: z.number().int(),
      mean: z.number(),
      median: z.number(),
      iqr: z.number(),
    }),
  ),
  skipped: z.array(z.object({ type: z.string(), cells: z.number().int() })),
});
export type IthSummary = z.infer<typeof ithSummary>;

/** data/box.json */
export interface IthBoxData {
  method: 'dist' | 'iqr';
  cmethod: 'ttest' | 'wilcoxon';
  groups: ({ type: string } & ScoreBox)[];
  pairs: ScorePair[];
}

export const definition = defineTask({
  name: 'ith',
  titleKey: 'ith.title',
  displayName: { 'en-US': 'Intra-tumour heterogeneity', 'zh-CN': '肿瘤内异质性' },
  order: 100,
  method: {
    'en-US':
      "Intra-tumour heterogeneity was scored per identity (cells downsampled with a fixed seed): either the pairwise Euclidean distances between cells in the principal components of the identity's variable genes (vst, scaled), or the interquartile range of the pairwise Pearson correlations on those genes; identities were compared with Welch t-tests or Wilcoxon tests (Holm-adjusted).",
    'zh-CN':
      '按分组计算肿瘤内异质性（以固定种子降采样）：在该分组高变基因（vst，标准化）的主成分空间中细胞两两之间的欧氏距离，或这些基因上细胞两两 Pearson 相关系数的四分位距；分组间用 Welch t 检验或 Wilcoxon 检验比较（Holm 校正）。',
    citations: [],
  },
  params: ithParams,
  summary: ithSummary,
  permission: 'exploreCnv',
  species: 'human-mouse',
  tab: 'ith',
  timeoutMinutes: 60,
  fields: {
    groupBy: { kind: 'level' },
    groups: { kind: 'values', level: 'groupBy' },
    comparisons: { kind: 'hidden' },
    ncellMin: { advanced: true },
    ncellMax: { advanced: true },
    nPcs: { advanced: true },
    nHvg: { advanced: true },
    cmethod: { advanced: true },
    seed: { advanced: true },
  },
  messages: taskFailures('ith', en.failures, zh.failures),
});
