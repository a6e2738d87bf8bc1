import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import {
  comparisonParams,
  ENRICHMENT_MESSAGES,
  groupCount,
} from '@cellcloud/contracts/tasks/enrichment-common';

/**
 * Enrichment one-vs-one step 1 (docs/methods/deg-groups.md): DEGs between two groups defined by conditions on
 * annotation levels. Wilcoxon rank-sum with tie correction + BH on the normalized layer, both
 * directions. Outputs:
 *   tables/group1.csv, tables/group2.csv  DEG_GROUP_COLUMNS, group k vs the other, sorted by zscore
 *   tables/pseudobulk.csv                 (pseudobulk: true) gene, logFC, AveExpr, t, P.Value,
 *                                         adj.P.Val: limma-voom (TMM, filterByExpr, eBayes) on raw
 *                                         counts summed per sample × group, group 1 vs group 2
 */
export const degGroupsParams = z
  .object({
    ...comparisonParams,
    /** Optional pseudobulk test (sum of counts per sample × group) when each group has ≥ 2 samples. */
    pseudobulk: z.boolean().default(false),
    /** Annotation level naming the sample of each cell (pseudobulk columns). */
    sampleKey: groupByKey.default('Sample ID'),
  })
  .strict();
export type DegGroupsParams = z.infer<typeof degGroupsParams>;

export const degGroupsSummary = z
  .object({
    group1: groupCount,
    group2: groupCount,
    droppedOverlap: z.number().int(),
    genesTested: z.number().int(),
    /** Genes passing the display filter (docs/product/validation.md) per direction. */
    shown1: z.number().int(),
    shown2: z.number().int(),
    pseudobulk: z
      .object({
        samples1: z.number().int(),
        samples2: z.number().int(),
        genesTested: z.number().int(),
        significant: z.number().int(),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type DegGroupsSummary = z.infer<typeof degGroupsSummary>;

export const definition = defineTask({
  name: 'deg-groups',
  titleKey: 'degGroups.title',
  displayName: { 'en-US': 'Differential expression between two groups', 'zh-CN': '两组间差异表达' },
  order: 20,
  method: {
    'en-US':
      'Genes were compared between the two groups with the Wilcoxon rank-sum test (tie-corrected, Benjamini–Hochberg adjusted) on the log-normalized values, in both directions; optionally, counts summed per sample and group were tested with limma-voom (TMM normalization, empirical Bayes).',
    'zh-CN':
      '在对数标准化数据上用 Wilcoxon 秩和检验（校正结、Benjamini–Hochberg 校正）双向比较两组基因表达；可选地，对按样本和分组求和的计数用 limma-voom（TMM 标准化、经验贝叶斯）做拟批量检验。',
    citations: [],
  },
  params: degGroupsParams,
  summary: degGroupsSummary,
  permission: 'exploreDifferentialExpression',
  species: 'any',
  tab: 'differentialExpression',
  timeoutMinutes: 60,
  fields: {
    group1: { kind: 'group' },
    group2: { kind: 'group' },
    sampleKey: { kind: 'level' },
    overlap: { advanced: true },
  },
  messages: ENRICHMENT_MESSAGES,
});
