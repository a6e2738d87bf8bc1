import { z } from 'zod';
import { defineTask } from '@cellcloud/contracts/tasks/define';
import { geneSetSource, groupCount } from '@cellcloud/contracts/tasks/enrichment-common';
import { comparisonSource, comparisonStepFields, geneSetTaskFields } from '../_shared/contract/enrichment';

/**
 * Enrichment one-vs-one step 2 (docs/methods/enrich.md): the user's thresholds select the up-regulated genes
 * of each group from a deg-groups task (or from the two groups computed inline when no source
 * task is given, e.g. on the CLI), then over-representation analysis (hypergeometric, universe =
 * genes tested, BH, Storey q as clusterProfiler) against each chosen library. Outputs:
 *   tables/filtered_group1.csv, filtered_group2.csv   DEGs passing the thresholds (DEG_GROUP_COLUMNS)
 *   tables/ora_<group>_<library>.csv                  ORA_COLUMNS, p.adjust < 0.05 and Count ≥ 3, by p.adjust
 *   data/plots.json                                   per group × library: top terms for bar/dot plots,
 *                                                     gene–term heat (log2FC), emap (Jaccard) and cnet
 */
export const enrichParams = z
  .object({
    ...comparisonSource,
    log2fc: z.number().min(0).max(20).default(0.25),
    pval: z.number().gt(0).max(1).default(0.05),
    padj: z.number().gt(0).max(1).default(1),
    pct: z.number().min(0).max(1).default(0.1),
    libraries: z.array(geneSetSource).min(1).default(['go_bp', 'reactome', 'wikipathways', 'hallmark']),
    minSetSize: z.number().int().min(1).default(10),
    maxSetSize: z.number().int().min(1).default(500),
    /** Terms shown per plot (bar, dot, heat, emap, cnet take the first N by p.adjust). */
    showTerms: z.number().int().min(1).max(50).default(10),
  })
  .strict();
export type EnrichParams = z.infer<typeof enrichParams>;

export const enrichSummary = z
  .object({
    group1: groupCount,
    group2: groupCount,
    universe: z.number().int(),
    results: z.array(
      z
        .object({
          group: z.enum(['group1', 'group2']),
          library: geneSetSource,
          table: z.string(),
          genes: z.number().int(),
          termsTested: z.number().int(),
          termsReported: z.number().int(),
        })
        .strict(),
    ),
    /** How gene symbols were mapped to the (human) gene sets. */
    mapping: z.enum(['human', 'orthologue-table', 'uppercase-symbol']),
  })
  .strict();
export type EnrichSummary = z.infer<typeof enrichSummary>;

export const definition = defineTask({
  name: 'enrich',
  titleKey: 'enrich.title',
  displayName: { 'en-US': 'Over-representation analysis', 'zh-CN': '富集分析（ORA）' },
  order: 30,
  method: {
    'en-US':
      'The genes passing the chosen thresholds in each group were tested for over-representation in the chosen gene set libraries (hypergeometric test, universe = the genes tested, Benjamini–Hochberg and Storey q-values as clusterProfiler computes them).',
    'zh-CN':
      '对每组中通过所选阈值的基因，在所选基因集库中做过表达分析（超几何检验，背景为参与检验的基因，Benjamini–Hochberg 校正与 Storey q 值，与 clusterProfiler 一致）。',
    citations: [
      'Wu T, et al. clusterProfiler 4.0: a universal enrichment tool for interpreting omics data. The Innovation 2021;2:100141.',
    ],
  },
  params: enrichParams,
  summary: enrichSummary,
  ...geneSetTaskFields('enrich'),
  dependsOn: comparisonStepFields.dependsOn,
  // the tuning knobs under the form's "Advanced"
  fields: {
    ...comparisonStepFields.fields,
    overlap: { advanced: true },
    log2fc: { advanced: true },
    pval: { advanced: true },
    padj: { advanced: true },
    pct: { advanced: true },
    minSetSize: { advanced: true },
    maxSetSize: { advanced: true },
    showTerms: { advanced: true },
  },
});

/** Figure data of one group × library (data/plots.json, engine/plots.ts), all from the reported terms: the web's charts read it. */
export interface OraPlotData {
  group: 'group1' | 'group2';
  library: string;
  /** Bar / dot plots: the first `showTerms` reported terms. */
  terms: {
    ID: string;
    Description: string;
    Count: number;
    GeneRatio: number;
    pAdjust: number;
    logp: number;
  }[];
  /** Gene–term heat plot (enrichplot heatplot): genes of the shown terms, coloured by log2FC. */
  heat: { genes: string[]; terms: string[]; cells: [gene: number, term: number, log2fc: number][] };
  /** Enrichment map: up to 30 terms, edges with Jaccard similarity of their hit genes ≥ 0.2 (emapplot default). */
  emap: {
    nodes: { ID: string; Description: string; Count: number; pAdjust: number }[];
    edges: [number, number, number][];
  };
  /** Gene–concept network of the first 5 terms (cnetplot default showCategory 5). */
  cnet: {
    terms: { ID: string; Description: string; Count: number }[];
    genes: { gene: string; log2fc: number }[];
    edges: [term: number, gene: number][];
  };
}
