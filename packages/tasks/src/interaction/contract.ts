import { z } from 'zod';
import { defineTask, groupByKey, groupSpec } from '@cellcloud/contracts/tasks/define';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { taskFailures } from '../_shared/contract/messages';
import { seedParam } from '../_shared/contract/schemas';

/**
 * Cell–cell communication, steps 1 and 2 (issue 16): the CellPhoneDB v5 statistical method
 * (docs/methods/interaction.md) on one annotation level, human only (docs/product/validation.md#species). Outputs (`engine/README.md`): tables means, pvalues, significant_means, deconvoluted (CellPhoneDB
 * layout), interactions (the long table of docs/product/entities.md#cell-interaction-table), count_network, interaction_count, top30; data
 * `interactions.json` (interaction metadata + categories), `means.bin` / `pvalues.bin` (float32,
 * interaction-major × pairs) for the step 2 views.
 */
export const interactionParams = z
  .object({
    /** Annotation level whose groups are the cell types. */
    groupBy: groupByKey,
    /** Only these cell types of the level (at least two); all when absent. */
    cellTypes: z.array(z.string().min(1).max(500)).min(2).max(200).optional(),
    /** Restrict the cells first (e.g. one sample or one group): `Sample ID=ctrl`. */
    restrict: groupSpec.optional(),
    /** Cells sampled per cell type (seeded; types with fewer cells keep all). */
    cellsPerType: z.number().int().min(10).max(10000).default(500),
    /** A partner counts as expressed in a type when more than this fraction of its cells express it. */
    threshold: z.number().min(0).max(1).default(0.1),
    /** Label permutations. */
    iterations: z.number().int().min(10).max(10000).default(1000),
    /** Significant means: p ≤ this. */
    pvalue: z.number().gt(0).max(1).default(0.05),
    /** Decimals of the means written (CellPhoneDB result_precision). */
    precision: z.number().int().min(1).max(10).default(3),
    seed: seedParam(42),
  })
  .strict();
export type InteractionParams = z.infer<typeof interactionParams>;

export const interactionCategories = ['chemokines', 'checkpoints', 'cytokines', 'growth_factors'] as const;
export type InteractionCategory = (typeof interactionCategories)[number];

export const interactionSummary = z.object({
  groupBy: z.string(),
  geneIdKind: z.enum(['hgnc_symbol', 'ensembl']),
  genesMatched: z.number().int(),
  cellTypes: z.array(z.object({ name: z.string(), cells: z.number().int(), sampled: z.number().int() })),
  /** "A|B" pair columns, CellPhoneDB order (A slowest). */
  pairs: z.array(z.string()),
  nInteractions: z.number().int(),
  /** Significant (interaction, pair) results. */
  nSignificant: z.number().int(),
  /** Significant interactions per ordered pair, cellTypes × cellTypes, source-major. */
  counts: z.array(z.array(z.number().int())),
  /** First 30 of the rank-sorted significant table. */
  top30: z.array(
    z.object({
      index: z.number().int(),
      interactingPair: z.string(),
      idCpInteraction: z.string(),
      rank: z.number(),
    }),
  ),
  iterations: z.number().int(),
  threshold: z.number(),
  pvalue: z.number(),
  seed: z.number().int(),
  cellsPerType: z.number().int(),
  seconds: z.number(),
});
export type InteractionSummary = z.infer<typeof interactionSummary>;

/** data/interactions.json: one entry per interaction row of means/pvalues (same order). */
export const interactionMeta = z.object({
  pairs: z.array(z.string()),
  interactions: z.array(
    z.object({
      id: z.string(),
      pair: z.string(),
      partnerA: z.string(),
      partnerB: z.string(),
      secreted: z.boolean(),
      receptorA: z.boolean(),
      receptorB: z.boolean(),
      integrin: z.boolean(),
      classification: z.string(),
      rank: z.number(),
      categories: z.array(z.enum(interactionCategories)),
    }),
  ),
});
export type InteractionMeta = z.infer<typeof interactionMeta>;

export const definition = defineTask({
  name: 'interaction',
  titleKey: 'interaction.title',
  displayName: {
    'en-US': 'Cell–cell communication (CellPhoneDB statistical method)',
    'zh-CN': '细胞互作（CellPhoneDB 统计方法）',
  },
  order: 60,
  method: {
    'en-US':
      'Ligand–receptor interactions of CellPhoneDB v5 were tested between every ordered pair of cell types with the CellPhoneDB statistical method: mean expression of both partners in the sending and receiving types against a null distribution from permuted cell-type labels.',
    'zh-CN':
      '用 CellPhoneDB 统计方法检验每对有序细胞类型之间的 CellPhoneDB v5 配体–受体相互作用：将两侧细胞类型中配体与受体的平均表达与置换细胞类型标签得到的零分布比较。',
    citations: [
      'Efremova M, et al. CellPhoneDB: inferring cell–cell communication from combined expression of multi-subunit ligand–receptor complexes. Nature Protocols 2020;15:1484–1506.',
    ],
  },
  params: interactionParams,
  summary: interactionSummary,
  permission: 'exploreCellInteraction',
  species: 'human',
  tab: 'cellInteractions',
  timeoutMinutes: 120,
  fields: {
    groupBy: { kind: 'level' },
    restrict: { kind: 'group' },
    cellsPerType: { advanced: true },
    threshold: { advanced: true },
    iterations: { advanced: true },
    pvalue: { advanced: true },
    precision: { advanced: true },
    seed: { advanced: true },
  },
  messages: taskFailures('interaction', en.failures, zh.failures),
});
