import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { seedParam } from '../_shared/contract/schemas';

/**
 * Monocle 2 trajectory (docs/product/screens.md "monocle2 trajectory (plots 1 and 2)", docs/methods/monocle2.md): cells of the
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
    /** 'auto' (the default of docs/methods/monocle2.md), 'none', or N cells per cluster. */
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
    seed: seedParam(1),
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

export const definition = defineTask({
  name: 'monocle2',
  titleKey: 'monocle2.title',
  displayName: { 'en-US': 'Trajectory (Monocle 2 / DDRTree)', 'zh-CN': '轨迹分析（Monocle 2 / DDRTree）' },
  order: 70,
  method: {
    'en-US':
      'Cells of the chosen clusters and samples were downsampled and ordered with Monocle 2: size factors, ordering genes (variable genes, monocle dispersion or an uploaded list), DDRTree reduction to two components, States and branch points by orderCells, pseudotime from the root State; genes changing along pseudotime were found with a negative binomial GLM likelihood-ratio test (~sm.ns(Pseudotime), BH-adjusted), and branch-dependent genes with BEAM when a branch point was chosen.',
    'zh-CN':
      '对所选簇和样本的细胞降采样后用 Monocle 2 排序：计算大小因子，选择排序基因（高变基因、monocle 离散度或上传的列表），DDRTree 降至两维，orderCells 划分状态和分支点，并从根状态计算拟时序；随拟时序变化的基因用负二项 GLM 似然比检验（~sm.ns(Pseudotime)，BH 校正）识别，选择分支点时用 BEAM 识别分支依赖基因。',
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
  fields: {
    groupBy: { kind: 'level' },
    beamBranch: { kind: 'hidden' },
    downsample: { advanced: true },
    nHvg: { advanced: true },
    deGenes: { advanced: true },
    nTopGenes: { advanced: true },
    nHeatmapGenes: { advanced: true },
    seed: { advanced: true },
  },
  messages: taskFailures('monocle2', en.failures, zh.failures),
});
