import { z } from 'zod';
import { defineTask, groupByKey, groupSpec } from '@cellcloud/contracts/tasks/define';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { taskFailures } from '../_shared/contract/messages';

/**
 * Automatic cell annotation (issue 13; levels: docs/product/entities.md#annotation-levels, rules:
 * docs/product/validation.md#subtype-annotation, method: docs/methods/annotate.md).
 *
 * `mode: 'auto'` — reference based (SingleR semantics: pairwise reference markers, Spearman
 * correlation per cell, fine-tuning, delta-MAD pruning) against a bundled reference chosen by
 * species + tissue, and scType-like marker scoring per cluster from marker lists by tissue (or a
 * user-uploaded marker csv). Writes the per-cell level `annot_auto` (+ score, delta, pruned label)
 * and the per-cluster majority `annot_auto_cluster` (+ confidence).
 *
 * `mode: 'subtype'` — docs/product/validation.md#subtype-annotation: re-annotates one lineage (mononuclear phagocytes, T, B,
 * endothelial) at subtype level on the lineage's cells (or a chosen group), writing `annot_sub`
 * and `annot_sub2`; the other cells get "other".
 */

export const annotationReferences = ['auto', 'hema_microarray', 'hca', 'mouse_rnaseq', 'pancreas'] as const;
export const markerSources = ['cellmarker', 'panglaodb', 'azimuth', 'upload', 'none'] as const;
export const subtypeLineages = ['mononuclear_phagocytes', 't_cells', 'b_cells', 'endothelial'] as const;
export type SubtypeLineage = (typeof subtypeLineages)[number];

export const annotateParams = z
  .object({
    mode: z.enum(['auto', 'subtype']).default('auto'),
    /** Reference species (docs/product/validation.md#species: must be chosen). Anything but human/mouse is refused. */
    species: z.string().max(60).optional(),
    /** Tissue type ("specify tissue type", docs/methods/annotate.md#inputs), e.g. blood, PBMC, pancreas, lung, brain. */
    tissue: z.string().max(100).optional(),
    reference: z.enum(annotationReferences).default('auto'),
    markerSource: z.enum(markerSources).default('cellmarker'),
    /** Level whose groups get the per-cluster majority and marker scoring. */
    clusterKey: groupByKey.default('cluster'),
    fineTune: z.boolean().default(true),
    /** SingleR tune.thresh: labels within this of the best score stay in the next round. */
    tuneThreshold: z.number().min(0).max(1).default(0.05),
    /** SingleR pruneScores nmads: calls whose delta is this many MADs below their label's median are pruned. */
    pruneNmads: z.number().min(0).max(20).default(3),
    /** Subtype mode: the lineage (docs/product/validation.md#subtype-annotation names). */
    lineage: z.enum(subtypeLineages).optional(),
    /** Subtype mode: cells to re-annotate (default: cells whose `annot_auto` is in the lineage). */
    subset: groupSpec.optional(),
    /** Subtype mode: level holding the major types used to find the lineage's cells. */
    lineageKey: groupByKey.default('annot_auto'),
  })
  .strict();
export type AnnotateParams = z.infer<typeof annotateParams>;

export const annotateSummary = z.object({
  mode: z.enum(['auto', 'subtype']),
  species: z.string(),
  tissue: z.string(),
  reference: z.string(),
  markerSource: z.string(),
  clusterKey: z.string(),
  nCells: z.number().int(),
  nAnnotated: z.number().int(),
  nPruned: z.number().int(),
  /** Per-cell obs columns written (annotation levels / numeric values). */
  levels: z.array(z.string()),
  labels: z.array(z.object({ label: z.string(), cells: z.number().int() })),
  clusters: z.array(
    z.object({
      cluster: z.string(),
      cells: z.number().int(),
      label: z.string(),
      confidence: z.number(),
      meanScore: z.number(),
      markerLabel: z.string().optional(),
      markerScore: z.number().optional(),
    }),
  ),
  lineage: z.string().optional(),
  seconds: z.number(),
});
export type AnnotateSummary = z.infer<typeof annotateSummary>;

export const definition = defineTask({
  name: 'annotate',
  titleKey: 'annotate.title',
  displayName: {
    'en-US': 'Automatic cell annotation (SingleR / marker scoring)',
    'zh-CN': '自动细胞注释（SingleR / 标记基因评分）',
  },
  order: 120,
  method: {
    'en-US':
      'Cells were labelled against a bundled reference chosen by species and tissue with the SingleR method (Spearman correlation on reference marker genes, fine-tuning, pruning of low-confidence calls), with a per-cluster majority label and marker-list scoring of each cluster.',
    'zh-CN':
      '按物种和组织选择内置参考，用 SingleR 方法为细胞注释（基于参考标记基因的 Spearman 相关、精细调整、剔除低置信度结果），并给出每个聚类的多数标签和基于标记基因列表的聚类评分。',
    citations: [
      'Aran D, et al. Reference-based analysis of lung single-cell sequencing reveals a transitional profibrotic macrophage. Nature Immunology 2019;20:163–172.',
      'Ianevski A, Giri AK, Aittokallio T. Fully-automated and ultra-fast cell-type identification using specific marker combinations from single-cell transcriptomic data. Nature Communications 2022;13:1246.',
    ],
  },
  params: annotateParams,
  summary: annotateSummary,
  permission: 'exploreCellAnnotations',
  species: 'human-mouse',
  tab: 'cellAnnotations',
  timeoutMinutes: 60,
  uploads: [
    {
      name: 'markerFile',
      labelKey: 'annotate.markerFile',
      accept: '.csv,.tsv,.txt',
      maxBytes: 5 * 1024 * 1024,
    },
  ],
  fields: {
    clusterKey: { kind: 'level' },
    lineageKey: { kind: 'level' },
    subset: { kind: 'group' },
    fineTune: { advanced: true },
    tuneThreshold: { advanced: true },
    pruneNmads: { advanced: true },
  },
  messages: taskFailures('annotate', en.failures, zh.failures),
});
