import { z } from 'zod';
import { defineTask, groupByKey } from './define';
import { comparisonParams, ENRICHMENT_MESSAGES, groupCount } from './enrichment-common';

/**
 * Enrichment one-vs-one step 1 (METHODS §3.1): DEGs between two groups defined by conditions on
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
    /** Genes passing the SPEC §5 display filter per direction. */
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

export const degGroupsTask = defineTask({
  name: 'deg-groups',
  titleKey: 'degGroups.title',
  displayName: { 'en-US': 'Differential expression between two groups', 'zh-CN': '两组间差异表达' },
  order: 20,
  method: { citations: [] },
  params: degGroupsParams,
  summary: degGroupsSummary,
  permission: 'exploreDifferentialExpression',
  species: 'any',
  tab: 'differentialExpression',
  timeoutMinutes: 60,
  fields: { group1: { kind: 'group' }, group2: { kind: 'group' }, sampleKey: { kind: 'level' } },
  messages: ENRICHMENT_MESSAGES,
});
