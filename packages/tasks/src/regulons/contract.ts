import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { seedParam } from '../_shared/contract/schemas';

/**
 * TF regulation, pySCENIC-style (issue 18; docs/methods/regulons.md): GRNBoost2-style TF → target importances,
 * pySCENIC co-expression modules, pruning against DoRothEA evidence (the documented substitute for
 * cisTarget motif rankings), `TF(+)` regulons, AUCell per cell, RSS / activity by cell type / CSI
 * modules. Engine: `./engine/` (README there).
 */
export const regulonsParams = z
  .object({
    /** Annotation level of the cell types (downsampling, RSS, activity). */
    groupBy: groupByKey,
    /** Cells sampled per cell type for the network inference (seeded). */
    cellsPerType: z.number().int().min(20).max(2000).default(150),
    /**
     * Most variable expressed genes considered as targets (those pruning can keep are boosted).
     * pySCENIC regresses every expressed gene; 1,500 dropped B-cell targets of PAX5 on pbmc3k
     * (CD19, BLK), so the default is wide.
     */
    maxTargets: z.number().int().min(20).max(20000).default(5000),
    /** DoRothEA confidence levels kept as evidence: A..this letter. */
    confidence: z.enum(['A', 'B', 'C', 'D', 'E']).default('C'),
    /**
     * cisTarget motif-ranking database (a path inside the server's resources folder, e.g.
     * `cistarget/hg38_10kbp_up_10kbp_down_full_tx_v10_clust.genes_vs_motifs.rankings.feather`).
     * Empty: modules are pruned against DoRothEA evidence (the shipped substitute).
     */
    rankings: z.string().trim().max(300).optional(),
    /** Smallest regulon kept (genes, TF included). */
    minRegulonSize: z.number().int().min(3).max(200).default(5),
    /** AUCell: fraction of the ranked genome used for the AUC. */
    aucThreshold: z.number().gt(0).max(0.5).default(0.05),
    /** CSI modules (heat-map cut). */
    csiModules: z.number().int().min(2).max(20).default(6),
    seed: seedParam(42),
  })
  .strict();
export type RegulonsParams = z.infer<typeof regulonsParams>;

export const regulonsSummary = z.object({
  groupBy: z.string(),
  species: z.enum(['human', 'mouse']),
  cellsSampled: z.number().int(),
  tfs: z.number().int(),
  /** Evidence the modules were pruned against (e.g. 'DoRothEA A–C'). */
  pruning: z.string().optional(),
  targets: z.number().int(),
  regulons: z.array(z.object({ name: z.string(), tf: z.string(), genes: z.number().int() })),
  /** Top regulons by RSS per cell type. */
  topByType: z.array(
    z.object({ cellType: z.string(), regulons: z.array(z.object({ name: z.string(), rss: z.number() })) }),
  ),
  seconds: z.number(),
});
export type RegulonsSummary = z.infer<typeof regulonsSummary>;

/** `data/heatmap.json`: z-scored AUC of the sampled cells (cells × regulons, row-major, clipped ±4). */
export interface RegulonCellHeatmap {
  regulons: string[];
  cells: string[];
  cellTypes: string[];
  z: number[];
}

/** `data/features.json`: TF expression next to regulon AUC on the embedding (docs/methods/regulons.md). */
export interface RegulonFeatures {
  /** Embedding name (umap preferred), null when the result has none. */
  embedding: string | null;
  cellTypes: string[];
  /** Per drawn cell: x, y (empty without an embedding) and index into cellTypes. */
  x: number[];
  y: number[];
  type: number[];
  regulons: { name: string; tf: string; expression: number[]; auc: number[] }[];
}

export const definition = defineTask({
  name: 'regulons',
  titleKey: 'regulons.title',
  displayName: { 'en-US': 'TF regulons (SCENIC-style)', 'zh-CN': '转录因子调控子（SCENIC 方法）' },
  order: 110,
  method: {
    'en-US':
      'Gene regulatory networks were inferred in the SCENIC manner on cells sampled per cell type: GRNBoost2-style gradient boosting ranked the transcription factors (DoRothEA) of each target gene, co-expression modules were pruned against DoRothEA evidence into regulons, and each cell was scored for every regulon with AUCell; regulon specificity (RSS), activity by cell type and the connection specificity index (CSI) summarise the regulons.',
    'zh-CN':
      '在按细胞类型抽样的细胞上以 SCENIC 方式推断基因调控网络：用 GRNBoost2 式梯度提升为每个靶基因排序转录因子（DoRothEA），共表达模块依据 DoRothEA 证据剪枝为调控子，并用 AUCell 为每个细胞计算每个调控子的活性；以调控子特异性（RSS）、各细胞类型活性和连接特异性指数（CSI）汇总调控子。',
    citations: [
      'Aibar S, et al. SCENIC: single-cell regulatory network inference and clustering. Nature Methods 2017;14:1083–1086.',
    ],
  },
  params: regulonsParams,
  summary: regulonsSummary,
  permission: 'exploreTfRegulation',
  species: 'human-mouse',
  tab: 'tfRegulation',
  timeoutMinutes: 240,
  fields: {
    groupBy: { kind: 'level' },
    cellsPerType: { advanced: true },
    maxTargets: { advanced: true },
    confidence: { advanced: true },
    rankings: { advanced: true },
    minRegulonSize: { advanced: true },
    aucThreshold: { advanced: true },
    csiModules: { advanced: true },
    seed: { advanced: true },
  },
  messages: taskFailures('regulons', en.failures, zh.failures),
});
