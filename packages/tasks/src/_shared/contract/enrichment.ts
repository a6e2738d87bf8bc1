import { z } from 'zod';
import {
  comparisonParams,
  ENRICHMENT_MESSAGES,
  GMT_UPLOAD_FIELD,
} from '@cellcloud/contracts/tasks/enrichment-common';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';

/**
 * What the gene set tasks (enrich, gsea, gsva) share in their contracts, beside the schemas of
 * `@cellcloud/contracts/tasks/enrichment-common` (docs/methods/enrich.md, gsea.md, gsva.md).
 */

/** The comparison a step 2 (enrich, gsea) reads: a finished deg-groups run, or the two groups inline. */
export const comparisonSource = {
  sourceTaskId: z.string().uuid().optional(),
  group1: comparisonParams.group1.optional(),
  group2: comparisonParams.group2.optional(),
  overlap: comparisonParams.overlap,
};

type Shared = Pick<
  TaskDefinition,
  'permission' | 'species' | 'tab' | 'timeoutMinutes' | 'uploads' | 'messages'
>;

/** Permission, species rule, tab, time limit, the GMT upload (label `<key>.uploads.geneSets`) and messages. */
export function geneSetTaskFields(key: string): Shared {
  return {
    permission: 'exploreDifferentialExpression',
    species: 'orthologues',
    tab: 'differentialExpression',
    timeoutMinutes: 60,
    uploads: [
      {
        name: GMT_UPLOAD_FIELD,
        labelKey: `${key}.uploads.geneSets`,
        accept: '.gmt,.txt,.gz',
        maxBytes: 20_000_000,
      },
    ],
    messages: ENRICHMENT_MESSAGES,
  };
}

/** A step 2's source: the deg-groups run it reads, and the form hints of its comparison. */
export const comparisonStepFields: Pick<TaskDefinition, 'dependsOn' | 'fields'> = {
  dependsOn: ['deg-groups'],
  fields: { group1: { kind: 'group' }, group2: { kind: 'group' }, sourceTaskId: { kind: 'source' } },
};
