import { z } from 'zod';
import { defineTask } from './define';
import { comparisonParams, ENRICHMENT_MESSAGES, groupCount } from './enrichment-common';

/**
 * Enrichment one-vs-one step 1 (METHODS §3.1): DEGs between two groups defined by conditions on
 * annotation levels. Wilcoxon rank-sum with tie correction + BH on the normalized layer, both
 * directions. Outputs:
 *   tables/group1.csv, tables/group2.csv  DEG_GROUP_COLUMNS, group k vs the other, sorted by zscore
 */
export const degGroupsParams = z
  .object({
    ...comparisonParams,
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
  })
  .strict();
export type DegGroupsSummary = z.infer<typeof degGroupsSummary>;

export const degGroupsTask = defineTask({
  name: 'deg-groups',
  titleKey: 'degGroups.title',
  params: degGroupsParams,
  summary: degGroupsSummary,
  permission: 'exploreDifferentialExpression',
  species: 'any',
  tab: 'differentialExpression',
  timeoutMinutes: 60,
  fields: { group1: { kind: 'group' }, group2: { kind: 'group' } },
  messages: ENRICHMENT_MESSAGES,
});
