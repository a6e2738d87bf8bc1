import { z } from 'zod';
import { defineTask } from '@cellcloud/contracts/tasks/define';
import { geneSetSource, groupCount } from '@cellcloud/contracts/tasks/enrichment-common';
import { comparisonSource, comparisonStepFields, geneSetTaskFields } from '../_shared/contract/enrichment';

/**
 * GSEA (docs/methods/gsea.md): genes of a group1-vs-group2 comparison expressed in ≥ minPct of either group
 * ranked by Seurat's avg_log2FC (log2(mean expm1 + 1) difference), gene sets of 10–500 genes,
 * permutation test of gene sets (fgsea's simple algorithm: random sets of the same size, `nperm`
 * draws, seeded), NES, BH, leading edge. Outputs:
 *   tables/gsea.csv         GSEA_COLUMNS, every tested set by p.adjust
 *   data/running.json       ranked metric (downsampled) + running score of the top / selected sets
 */
export const gseaParams = z
  .object({
    ...comparisonSource,
    library: geneSetSource.default('hallmark'),
    minPct: z.number().min(0).max(1).default(0.05),
    minSetSize: z.number().int().min(1).default(10),
    maxSetSize: z.number().int().min(1).default(500),
    nperm: z.number().int().min(100).max(100_000).default(10_000),
    seed: z.number().int().min(0).default(10),
    /** Step 2: re-plot only these term IDs (running scores written for them, no significance filter). */
    selectedTerms: z.array(z.string().max(500)).max(50).default([]),
    /** Terms with running-score data when none are selected. */
    topTerms: z.number().int().min(1).max(50).default(10),
  })
  .strict();
export type GseaParams = z.infer<typeof gseaParams>;

export const gseaSummary = z
  .object({
    group1: groupCount,
    group2: groupCount,
    rankedGenes: z.number().int(),
    setsTested: z.number().int(),
    significant: z.number().int(),
    nperm: z.number().int(),
    seed: z.number().int(),
    mapping: z.enum(['human', 'orthologue-table', 'uppercase-symbol']),
  })
  .strict();
export type GseaSummary = z.infer<typeof gseaSummary>;

export const definition = defineTask({
  name: 'gsea',
  titleKey: 'gsea.title',
  displayName: { 'en-US': 'Gene set enrichment analysis (GSEA)', 'zh-CN': '基因集富集分析（GSEA）' },
  order: 40,
  method: {
    'en-US':
      'Genes expressed in enough cells of either group were ranked by the comparison of the two groups and tested for enrichment of each gene set with the fgsea algorithm (permutation p-values, Benjamini–Hochberg adjusted).',
    'zh-CN':
      '将在任一组足够多细胞中表达的基因按两组比较结果排序，用 fgsea 算法检验各基因集的富集（置换检验 p 值，Benjamini–Hochberg 校正）。',
    citations: ['Korotkevich G, et al. Fast gene set enrichment analysis. bioRxiv 060012, 2021.'],
  },
  params: gseaParams,
  summary: gseaSummary,
  ...geneSetTaskFields('gsea'),
  dependsOn: comparisonStepFields.dependsOn,
  // the tuning knobs under the form's "Advanced"
  fields: {
    ...comparisonStepFields.fields,
    overlap: { advanced: true },
    minPct: { advanced: true },
    minSetSize: { advanced: true },
    maxSetSize: { advanced: true },
    nperm: { advanced: true },
    seed: { advanced: true },
    selectedTerms: { advanced: true },
    topTerms: { advanced: true },
  },
});
