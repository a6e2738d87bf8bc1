import { z } from 'zod';
import { defineTask, groupByKey } from './define';

/**
 * CNV inference with inferCNV semantics (METHODS §7.1–7.3, issue 17). Engine:
 * packages/engine/src/tasks/cnv/ (README there lists the outputs and their columns).
 */
const label = z.string().min(1).max(500);
/** A list of labels; the CLI form "a,b" (one string) is split at commas. */
export const labelList = (min: number, max: number) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : v,
    z.array(label).min(min).max(max),
  );

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
    /** METHODS `--split_ref`: reference cells from the analysed samples, from all samples, or from listed ones. */
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
    /** Expression fed to the pipeline: the log-normalized data (METHODS observed behaviour) or raw counts. */
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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(0),
    /** Score-plot comparisons "A vs B" (labels of the chosen identity). */
    comparisons: z
      .array(z.object({ a: label, b: label }).strict())
      .max(50)
      .default([]),
    /** Frequency call thresholds (METHODS §7.3 gene_stats). */
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
    groups: {
      label: string;
      reference: boolean;
      n: number;
      min: number;
      q1: number;
      median: number;
      q3: number;
      max: number;
      mean: number;
      /** violin outline: density at `grid` points */
      grid: number[];
      density: number[];
    }[];
    overall: { method: string; p: number } | null;
    pairs: { a: string; b: string; p: number; pAdj: number; signif: string; requested: boolean }[];
  }[];
}

export const cnvTask = defineTask({
  name: 'cnv',
  titleKey: 'cnv.title',
  displayName: { 'en-US': 'Copy-number inference (inferCNV)', 'zh-CN': '拷贝数推断（inferCNV）' },
  order: 90,
  method: {
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
    refSamples: { kind: 'values', level: 'sampleKey' },
    clusterKey: { kind: 'level' },
    groupKey: { kind: 'level' },
    positionsPath: { kind: 'hidden' },
    comparisons: { kind: 'hidden' },
  },
  messages: {
    'en-US': {
      'cnv.tooFewObserved': 'Only {cells} observed (non-reference) cells; at least {min} are needed.',
      'cnv.noReference': 'No reference cell of {types} in the chosen samples.',
      'cnv.referenceNotFound': 'The annotation level "{key}" has no cell type "{value}".',
      'cnv.fewGenesMatched':
        'Only {matched} of {total} genes matched the {genome} gene positions ({file}); at least {min} are needed. Check the species or gene names.',
      'cnv.fewGenesKept':
        'Only {kept} genes passed the expression filter (mean ≥ {cutoff}, expressed in ≥ {minCells} cells); at least {min} are needed.',
      'cnv.positionsInvalid': 'The gene-position file "{file}" could not be read: {detail}.',
      'cnv.genomeSpecies': 'Genome {genome} does not match the dataset species ({species}).',
      'cnv.refSamplesMissing': 'Choose the samples to take reference cells from.',
      'cnv.sampleMissing': 'Sample "{value}" does not exist in "{key}".',
    },
    'zh-CN': {
      'cnv.tooFewObserved': '观测（非参考）细胞只有 {cells} 个；至少需要 {min} 个。',
      'cnv.noReference': '所选样本中没有 {types} 的参考细胞。',
      'cnv.referenceNotFound': '注释层级“{key}”中没有细胞类型“{value}”。',
      'cnv.fewGenesMatched':
        '{total} 个基因中只有 {matched} 个匹配到 {genome} 基因位置（{file}）；至少需要 {min} 个。请检查物种或基因名。',
      'cnv.fewGenesKept':
        '只有 {kept} 个基因通过表达过滤（均值 ≥ {cutoff}，在 ≥ {minCells} 个细胞中表达）；至少需要 {min} 个。',
      'cnv.positionsInvalid': '无法读取基因位置文件“{file}”：{detail}。',
      'cnv.genomeSpecies': '基因组 {genome} 与数据物种（{species}）不符。',
      'cnv.refSamplesMissing': '请选择提供参考细胞的样本。',
      'cnv.sampleMissing': '“{key}”中不存在样本“{value}”。',
    },
  },
});
