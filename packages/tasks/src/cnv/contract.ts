import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import { labelList, seedParam, type ScoreBox, type ScorePair } from '../_shared/contract/schemas';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';

/**
 * CNV inference with inferCNV semantics (docs/methods/cnv.md, issue 17). Engine:
 * ./engine/ (docs/cnv.md lists the outputs and their columns).
 */
const label = z.string().min(1).max(500);
export const cnvParams = z
  .object({
    /** Annotation level whose groups are the cell types (reference types are named in it). */
    groupBy: groupByKey,
    /** Reference (normal) cell types, as they appear in `groupBy`. */
    reference: labelList(1, 50),
    /** Observed types (default: every other group of `groupBy`). */
    observed: labelList(0, 500).optional(),
    /** Level holding the sample of each cell (split_ref, subclones per sample, score plots). */
    sampleKey: groupByKey.default('Sample ID'),
    /** Samples analysed (default: all). */
    samples: labelList(0, 500).optional(),
    /** `--split_ref` of docs/methods/cnv.md: reference cells from the analysed samples, from all samples, or from listed ones. */
    splitRef: z.enum(['analysed', 'all', 'listed']).default('analysed'),
    refSamples: labelList(0, 500).optional(),
    /** Level of the "group" score plots (the samples' group, when the analysis has one). */
    groupKey: groupByKey.optional(),
    /** Level of the "cluster" score plots (default the analysis clusters). */
    clusterKey: groupByKey.default('cluster'),
    /** 'auto' = hg38 for human, mm10 for mouse. */
    genome: z.enum(['auto', 'hg38', 'hg19', 'mm10']).default('auto'),
    /** Gene-position file relative to the resources root (TSV with header, or inferCNV's header-less gene order file). */
    positionsPath: z.string().min(1).max(500).optional(),
    /** Expression fed to the pipeline: the log-normalized data (the observed behaviour of docs/methods/cnv.md) or raw counts. */
    input: z.enum(['lognorm', 'counts']).default('lognorm'),
    cutoff: z.number().min(0).max(100).default(0.1),
    minCellsPerGene: z.number().int().min(0).max(1000).default(3),
    windowLength: z
      .number()
      .int()
      .min(3)
      .max(1001)
      .refine((v) => v % 2 === 1, 'odd')
      .default(101),
    maxCenteredThreshold: z.number().positive().max(100).default(3),
    denoise: z.boolean().default(true),
    sdAmplifier: z.number().min(0).max(10).default(1.5),
    /** ≥ this many reference cells → downsampled to maxRefCells ÷ types per type. */
    maxRefCells: z.number().int().min(10).max(100000).default(5000),
    minObserved: z.number().int().min(1).max(10000).default(50),
    /** Subclones of the observed cells: hierarchical clustering (inferCNV HCL, ward.D2) or k-means, cut into k, per sample. */
    subcloneMethod: z.enum(['hcl', 'kmeans']).default('hcl'),
    subcloneK: z.number().int().min(1).max(50).default(8),
    subclonePerSample: z.boolean().default(true),
    seed: seedParam(0),
    /** Score-plot comparisons "A vs B" (labels of the chosen identity). */
    comparisons: z
      .array(z.object({ a: label, b: label }).strict())
      .max(50)
      .default([]),
    /** Frequency call thresholds (docs/methods/cnv.md gene_stats). */
    lossBelow: z.number().default(0.99),
    gainAbove: z.number().default(1.01),
    minFraction: z.number().min(0).max(1).default(0.15),
  })
  .strict();
export type CnvParams = z.infer<typeof cnvParams>;

export const cnvSummary = z.object({
  genome: z.enum(['hg38', 'hg19', 'mm10', 'custom']),
  positionsFile: z.string(),
  nGenesDataset: z.number().int(),
  nGenesMatched: z.number().int(),
  nGenesUsed: z.number().int(),
  nObserved: z.number().int(),
  nReference: z.number().int(),
  nReferenceAvailable: z.number().int(),
  referenceTypes: z.array(z.string()),
  observedTypes: z.array(z.string()),
  chromosomes: z.array(z.object({ name: z.string(), firstGene: z.number().int(), nGenes: z.number().int() })),
  arms: z.array(z.object({ arm: z.string(), chromosome: z.string(), nGenes: z.number().int() })),
  armSource: z.string(),
  denoise: z.object({ applied: z.boolean(), lower: z.number(), upper: z.number(), fill: z.number() }),
  valueRange: z.object({ min: z.number(), max: z.number() }),
  subclones: z.array(z.object({ label: z.string(), sample: z.string(), cells: z.number().int() })),
  heatmap: z.object({
    rows: z.number().int(),
    bins: z.number().int(),
    downsampled: z.boolean(),
    totalCells: z.number().int(),
  }),
  identities: z.array(z.string()),
});
export type CnvSummary = z.infer<typeof cnvSummary>;

/** data/heatmap.json: layout of data/heatmap.bin (Uint8, rows × bins, row-major). */
export interface CnvHeatmapLayout {
  rows: number;
  bins: number;
  /** value = vmin + byte / 255 · (vmax − vmin) */
  vmin: number;
  vmax: number;
  /** Row blocks top to bottom: reference groups first, then observed groups (by type, then subclone). */
  groups: {
    label: string;
    reference: boolean;
    start: number;
    count: number;
    subclones?: { label: string; start: number; count: number }[];
  }[];
  /** Chromosome blocks along the columns. */
  chromosomes: { name: string; startBin: number; bins: number }[];
  /** Arm blocks along the columns. */
  arms: { arm: string; startBin: number; bins: number }[];
  genesPerBin: number;
  totalCells: number;
  downsampled: boolean;
}

/** data/scores.json: violin/box data of the CNV scores by identity. */
export interface CnvScoreViolins {
  score: 'CNVscore' | 'CNVscore_SS' | 'CNVscore_SD';
  identities: {
    identity: string;
    groups: ({ label: string; reference: boolean } & ScoreBox)[];
    overall: { method: string; p: number } | null;
    pairs: ScorePair[];
  }[];
}

export const definition = defineTask({
  name: 'cnv',
  titleKey: 'cnv.title',
  displayName: { 'en-US': 'Copy-number inference (inferCNV)', 'zh-CN': '拷贝数推断（inferCNV）' },
  order: 90,
  method: {
    'en-US':
      'Copy numbers were inferred with the inferCNV method: expression of the kept genes, ordered by genomic position, was compared with that of the reference cells and smoothed along each chromosome; cells were grouped into subclones, and per-cell CNV scores were compared between groups.',
    'zh-CN':
      '采用 inferCNV 方法推断拷贝数：按基因组位置排序的保留基因的表达与参考细胞比较，并沿每条染色体平滑；细胞被划分为亚克隆，并在组间比较每个细胞的 CNV 评分。',
    citations: [
      'Tirosh I, et al. Single-cell RNA-seq supports a developmental hierarchy in human oligodendroglioma. Nature 2016;539:309–313.',
    ],
  },
  params: cnvParams,
  summary: cnvSummary,
  permission: 'exploreCnv',
  species: 'human-mouse',
  tab: 'cnv',
  timeoutMinutes: 120,
  fields: {
    groupBy: { kind: 'level' },
    reference: { kind: 'values', level: 'groupBy' },
    observed: { kind: 'values', level: 'groupBy' },
    sampleKey: { kind: 'level' },
    samples: { kind: 'values', level: 'sampleKey' },
    refSamples: { kind: 'values', level: 'sampleKey', advanced: true },
    clusterKey: { kind: 'level' },
    groupKey: { kind: 'level' },
    positionsPath: { kind: 'hidden' },
    comparisons: { kind: 'hidden' },
    splitRef: { advanced: true },
    genome: { advanced: true },
    input: { advanced: true },
    cutoff: { advanced: true },
    minCellsPerGene: { advanced: true },
    windowLength: { advanced: true },
    maxCenteredThreshold: { advanced: true },
    denoise: { advanced: true },
    sdAmplifier: { advanced: true },
    maxRefCells: { advanced: true },
    minObserved: { advanced: true },
    subcloneMethod: { advanced: true },
    subcloneK: { advanced: true },
    subclonePerSample: { advanced: true },
    seed: { advanced: true },
    lossBelow: { advanced: true },
    gainAbove: { advanced: true },
    minFraction: { advanced: true },
  },
  messages: taskFailures('cnv', en.failures, zh.failures),
});
