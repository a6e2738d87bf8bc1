import { z } from 'zod';
import { defineTask, groupByKey } from './define';

/**
 * TF regulation, pySCENIC-style (issue 18; METHODS §8): GRNBoost2-style TF → target importances,
 * pySCENIC co-expression modules, pruning against DoRothEA evidence (the documented substitute for
 * cisTarget motif rankings), `TF(+)` regulons, AUCell per cell, RSS / activity by cell type / CSI
 * modules. Engine: `packages/engine/src/tasks/regulons/` (README there).
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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(42),
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

/** `data/features.json`: TF expression next to regulon AUC on the embedding (METHODS §8.1). */
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

export const regulonsTask = defineTask({
  name: 'regulons',
  titleKey: 'regulons.title',
  displayName: { 'en-US': 'TF regulons (SCENIC-style)', 'zh-CN': '转录因子调控子（SCENIC 方法）' },
  order: 110,
  method: {
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
  fields: { groupBy: { kind: 'level' } },
  messages: {
    'en-US': {
      'regulons.oneType':
        '"{key}" has only one cell type: regulon specificity (RSS) compares cell types, so at least two are needed.',
      'regulons.noTfs': 'None of the DoRothEA transcription factors is expressed in the sampled cells.',
      'regulons.noRegulons': 'No regulon with at least {min} genes was found.',
      'regulons.rankingsUnsupported':
        'cisTarget motif rankings ("{path}") are configured, but pruning against motif rankings is not available in this version. Leave the rankings setting empty to prune against DoRothEA evidence.',
    },
    'zh-CN': {
      'regulons.oneType': '“{key}”只有一种细胞类型：调控子特异性（RSS）需要比较细胞类型，至少需要两种。',
      'regulons.noTfs': '抽样细胞中没有表达任何 DoRothEA 转录因子。',
      'regulons.noRegulons': '没有找到至少包含 {min} 个基因的调控子。',
      'regulons.rankingsUnsupported':
        '已配置 cisTarget 基序排序数据库（“{path}”），但当前版本尚不支持基于基序排序的剪枝。请将排序数据库设置留空，改用 DoRothEA 证据剪枝。',
    },
  },
});
