import { z } from 'zod';
import { defineTask, groupByKey } from './define';

/**
 * Monocle 2 trajectory (SPEC §3 "monocle2 trajectory (plots 1 and 2)", METHODS §6.1): cells of the
 * chosen clusters and samples, downsampled (`auto`: above 10,000 cells each cluster to
 * round(10000 / clusters); a number: N per cluster; `none`), size factors and detectGenes(0.1) as
 * monocle, ordering genes (Seurat vst HVGs, monocle dispersion, or an uploaded list), DDRTree to 2
 * components, orderCells States / branch points, root = the State holding most cells of `root`
 * (or `rootState`), reverse, pseudotime rescaled 0–10 (one decimal), differentialGeneTest
 * (~sm.ns(Pseudotime) NB GLM vs intercept, LRT, BH), top genes and a 100-point heat map.
 * Outputs: tables/cells.csv (barcode, Cluster, Sample, State, Pseudotime, dim_1, dim_2),
 * tables/tree.csv (principal node, dim_1, dim_2), tables/pseudotime_genes.csv, tables/heatmap_genes.csv,
 * data/trajectory.json, data/heatmap.json, data/top_genes.json; obs `monocle2_pseudotime`, `monocle2_state`.
 */
export const monocle2Params = z
  .object({
    groupBy: groupByKey.default('cluster'),
    groups: z.array(z.string().max(500)).min(1).max(500).optional(),
    samples: z.array(z.string().max(500)).min(1).max(500).optional(),
    /** 'auto' (METHODS default), 'none', or N cells per cluster. */
    downsample: z.union([z.enum(['auto', 'none']), z.number().int().min(10).max(100_000)]).default('auto'),
    /** Ordering genes: Seurat vst HVGs, monocle dispersion ("persion"), or the uploaded list. */
    orderingGenes: z.enum(['vst', 'dispersion', 'upload']).default('vst'),
    nHvg: z.number().int().min(50).max(10_000).default(2000),
    /** The group whose cells start the trajectory (its most frequent State becomes the root State). */
    root: z.union([z.string().min(1).max(500), z.number().transform(String)]).optional(),
    /** Root State (plot 2 "setroot" by state); wins over `root`. */
    rootState: z.union([z.string().regex(/^\d+$/), z.number().int().min(1).transform(String)]).optional(),
    reverse: z.boolean().default(false),
    /** Genes tested along pseudotime: the ordering genes (default) or every gene expressed in ≥ 10 cells. */
    deGenes: z.enum(['ordering', 'expressed']).default('ordering'),
    nTopGenes: z.number().int().min(1).max(50).default(8),
    nHeatmapGenes: z.number().int().min(2).max(200).default(30),
    /** BEAM at this branch point (`Y_<n>` of summary.branchPoints): branch-dependent genes and the branched heat map. */
    beamBranch: z
      .string()
      .regex(/^Y_\d+$/)
      .optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .strict();
export type Monocle2Params = z.infer<typeof monocle2Params>;

export const monocle2Summary = z.object({
  groupBy: z.string(),
  nCellsSelected: z.number().int(),
  nCells: z.number().int(),
  nOrderingGenes: z.number().int(),
  nCenters: z.number().int(),
  nStates: z.number().int(),
  branchPoints: z.array(z.string()),
  rootState: z.string(),
  reversed: z.boolean(),
  nGenesTested: z.number().int(),
  nGenesSignificant: z.number().int(),
  topGenes: z.array(z.string()),
  /** Present when BEAM ran. */
  beam: z
    .object({
      branchPoint: z.string(),
      branches: z.array(z.string()),
      nCells: z.number().int(),
      nSignificant: z.number().int(),
    })
    .optional(),
});
export type Monocle2Summary = z.infer<typeof monocle2Summary>;

/** data/trajectory.json */
export interface Monocle2Trajectory {
  cells: {
    x: number[];
    y: number[];
    state: string[];
    pseudotime: number[];
    cluster: string[];
    sample: string[];
  };
  nodes: { id: string; x: number; y: number }[];
  edges: [string, string][];
  branchPoints: string[];
  rootNode: string;
}

/** data/heatmap.json: smoothed expression (row-scaled, clipped ±3) of the top genes at 100 pseudotime points. */
export interface Monocle2Heatmap {
  pseudotime: number[];
  genes: string[];
  clusters: number[];
  values: number[][];
}

/** data/top_genes.json: per gene the cells' size-normalised expression and the fitted curve. */
export interface Monocle2TopGenes {
  genes: { gene: string; qval: number; expression: number[]; curve: number[] }[];
  curvePseudotime: number[];
}

/** data/beam_heatmap.json: per gene the two branches' smoothed curves (row-scaled together, ±3), branch 1 from its tip to the branch point then branch 2 out. */
export interface Monocle2BeamHeatmap {
  branches: string[];
  genes: string[];
  clusters: number[];
  /** 200 values per gene: branch 1 at pseudotime 100 → 0, then branch 2 at 0 → 100 */
  values: number[][];
}

export const monocle2Task = defineTask({
  name: 'monocle2',
  titleKey: 'monocle2.title',
  displayName: { 'en-US': 'Trajectory (Monocle 2 / DDRTree)', 'zh-CN': '轨迹分析（Monocle 2 / DDRTree）' },
  order: 70,
  method: {
    citations: [
      'Qiu X, et al. Reversed graph embedding resolves complex single-cell trajectories. Nature Methods 2017;14:979–982.',
    ],
  },
  params: monocle2Params,
  summary: monocle2Summary,
  permission: 'exploreTrajectory',
  species: 'any',
  tab: 'trajectory',
  timeoutMinutes: 90,
  uploads: [
    {
      name: 'orderingGenes',
      labelKey: 'monocle2.orderingGenesFile',
      accept: '.csv,.txt',
      maxBytes: 1_000_000,
    },
  ],
  fields: { groupBy: { kind: 'level' }, beamBranch: { kind: 'hidden' } },
  messages: {
    'en-US': {
      'monocle2.tooFewCells':
        'Only {cells} cells match the chosen clusters and samples; at least {min} are needed.',
      'monocle2.rootTie':
        'The cells of "{group}" are split equally between States {states}; choose the root State directly.',
      'monocle2.rootMissing': 'No kept cell belongs to "{group}", so it cannot be the root.',
      'monocle2.unknownState': 'There is no State {state} (the trajectory has {n}).',
      'monocle2.noOrderingGenes': 'No ordering gene is left ({detail}).',
      'monocle2.uploadMissing':
        'Upload the ordering gene list (one gene per line) or choose another ordering-gene mode.',
      'monocle2.samplesMissing': 'This analysis has no "Sample ID" column to select samples.',
      'monocle2.noBranchPoint': '{node} is not a branch point of this trajectory (branch points: {points}).',
    },
    'zh-CN': {
      'monocle2.tooFewCells': '所选簇和样本只有 {cells} 个细胞；至少需要 {min} 个。',
      'monocle2.rootTie': '“{group}”的细胞在状态 {states} 中数量相同；请直接选择根状态。',
      'monocle2.rootMissing': '保留的细胞中没有属于“{group}”的细胞，无法作为根。',
      'monocle2.unknownState': '不存在状态 {state}（轨迹共有 {n} 个状态）。',
      'monocle2.noOrderingGenes': '没有可用的排序基因（{detail}）。',
      'monocle2.uploadMissing': '请上传排序基因列表（每行一个基因）或选择其他排序基因方式。',
      'monocle2.samplesMissing': '该分析没有“Sample ID”列，无法选择样本。',
      'monocle2.noBranchPoint': '{node} 不是该轨迹的分支点（分支点：{points}）。',
    },
  },
});
