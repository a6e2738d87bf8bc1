import { z } from 'zod';
import { defineTask, groupByKey, groupSpec } from './define';

/**
 * Automatic cell annotation (issue 13, SPEC §3 levels / §5 rules, METHODS §10).
 *
 * `mode: 'auto'` — reference based (SingleR semantics: pairwise reference markers, Spearman
 * correlation per cell, fine-tuning, delta-MAD pruning) against a bundled reference chosen by
 * species + tissue, and scType-like marker scoring per cluster from marker lists by tissue (or a
 * user-uploaded marker csv). Writes the per-cell level `annot_auto` (+ score, delta, pruned label)
 * and the per-cluster majority `annot_auto_cluster` (+ confidence).
 *
 * `mode: 'subtype'` — SPEC §5: re-annotates one lineage (mononuclear phagocytes, T, B,
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
    /** Reference species (SPEC §5: must be chosen). Anything but human/mouse is refused. */
    species: z.string().max(60).optional(),
    /** Tissue type (SPEC §5: "specify tissue type"), e.g. blood, PBMC, pancreas, lung, brain. */
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
    /** Subtype mode: the lineage (SPEC §5 exact names). */
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

export const annotateTask = defineTask({
  name: 'annotate',
  titleKey: 'annotate.title',
  displayName: {
    'en-US': 'Automatic cell annotation (SingleR / marker scoring)',
    'zh-CN': '自动细胞注释（SingleR / 标记基因评分）',
  },
  order: 120,
  method: {
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
  fields: { clusterKey: { kind: 'level' }, lineageKey: { kind: 'level' }, subset: { kind: 'group' } },
  messages: {
    'en-US': {
      'annotate.speciesRequired': 'A reference species must be chosen for annotation.',
      'annotate.tissueRequired': 'Please specify tissue type.',
      'annotate.noMatchingTypes': 'No matching cell types.',
      'annotate.lineageRequired':
        'Choose the lineage to annotate at subtype level (mononuclear phagocytes, T cells, B cells or endothelial cells).',
      'annotate.noLineageCells':
        'No cell of the lineage "{lineage}" was found in "{key}"; run automatic annotation first or choose the cells.',
      'annotate.tooFewGenes':
        'Only {genes} reference genes were found in this dataset; the reference does not match its genes.',
      'annotate.markerFile':
        'The marker file is not valid: {detail}. Provide two columns: cell type, gene (header optional).',
      'annotate.referenceFile': 'The reference "{path}" could not be read: {detail}.',
    },
    'zh-CN': {
      'annotate.speciesRequired': '注释必须选择参考物种。',
      'annotate.tissueRequired': '请指定组织类型。',
      'annotate.noMatchingTypes': '没有匹配的细胞类型。',
      'annotate.lineageRequired': '请选择要进行亚型注释的谱系（单核吞噬细胞、T 细胞、B 细胞或内皮细胞）。',
      'annotate.noLineageCells': '在“{key}”中未找到谱系“{lineage}”的细胞；请先运行自动注释或选择细胞。',
      'annotate.tooFewGenes': '该数据集中只找到 {genes} 个参考基因；参考与数据的基因不匹配。',
      'annotate.markerFile': '标记基因文件无效：{detail}。请提供两列：细胞类型、基因（表头可选）。',
      'annotate.referenceFile': '无法读取参考“{path}”：{detail}。',
    },
  },
});
