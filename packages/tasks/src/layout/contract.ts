import { z } from 'zod';
import { pickDefaults } from '@cellcloud/contracts/analysis-params';
import { defineTask } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import { seedValue } from '../_shared/contract/schemas';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';

/**
 * Layouts on demand (issue 33; docs/engine-scaling.md "Layouts above 200k cells"): one of the
 * layouts the analysis can make and may have left out — 2-D t-SNE, 3-D UMAP, 3-D t-SNE — computed
 * from the result's stored representation exactly as the analysis computes it: the first
 * `nPcsUsed` columns of obsm X_pca, or of the batch-corrected X_pca_<method> (the analysis'
 * qc.json says which), the same 15 / 90 exact nearest neighbours, the same layout steps and
 * parameters (steps/umap.ts, steps/tsne.ts), so on the same cells it gives the analysis' own
 * coordinates bit for bit. It reads no matrix (MATRIX_FREE_TASKS): every cell, on large results
 * too. A result without PCs (an uploaded h5ad) gets PCs the analysis' way first (2,000 variable
 * genes, log-normalised, scaled PCA, the "auto" PC count), when its matrix is at hand.
 * Outputs: data/layout.f32 (Float32 row-major nCells × dims, the cells in the result's order).
 */

/** The layouts the task makes (the analysis' kinds that the out-of-core run leaves out). */
export const LAYOUT_KINDS = ['tsne', 'umap3D', 'tsne3D'] as const;
export type LayoutKind = (typeof LAYOUT_KINDS)[number];

/** The layout's data file (data/<file>: Float32 row-major nCells × dims, the result's cell order). */
export const LAYOUT_DATA_FILE = 'layout.f32';

/** The seed of a result that does not record its own: the analysis' default seed. */
export const LAYOUT_FALLBACK_SEED = pickDefaults('seed').seed;

/** The analysis' 3-D t-SNE limit (engine steps/tsne.ts TSNE3D_MAX_CELLS; a test keeps them equal). */
export const LAYOUT_TSNE3D_MAX_CELLS = 3000;

export const layoutParams = z
  .object({
    /** Which layout to compute. */
    layout: z.enum(LAYOUT_KINDS).default('tsne'),
    /**
     * The layout's seed; absent: the analysis' own seed (its qc.json records it), so the layout is
     * the one the analysis would have made; results written before the seed was recorded take the
     * analysis' default seed (LAYOUT_FALLBACK_SEED).
     */
    seed: seedValue.optional(),
  })
  .strict();
export type LayoutParams = z.infer<typeof layoutParams>;

export const layoutSummary = z.object({
  layout: z.enum(LAYOUT_KINDS),
  dims: z.number().int(),
  nCells: z.number().int(),
  /** The stored representation the layout was computed on: `pca`, `pca_harmony`, `pca_mnn`, or `recomputed` PCs. */
  representation: z.string(),
  /** Its leading columns used (the analysis' nPcsUsed, or all stored PCs when the result does not say). */
  nPcs: z.number().int(),
  /** Where nPcs came from: the analysis' record (qc.json), all stored PCs, or the recomputed PCA's own choice. */
  nPcsFrom: z.enum(['analysis', 'allStored', 'recomputed']),
  seed: z.number().int(),
  /** The layout's data file (data/<file>). */
  file: z.string(),
});
export type LayoutSummary = z.infer<typeof layoutSummary>;

export const definition = defineTask({
  name: 'layout',
  titleKey: 'layout.title',
  displayName: {
    'en-US': 'Layout on demand (t-SNE, 3-D UMAP, 3-D t-SNE)',
    'zh-CN': '按需布局（t-SNE、三维 UMAP、三维 t-SNE）',
  },
  order: 140,
  method: {
    'en-US':
      "The layout was computed after the analysis from its stored reduced representation (the principal components its neighbour graph used, batch-corrected when a correction ran), exactly as the analysis computes it: t-SNE (openTSNE's FFT-accelerated optimisation, perplexity 30 over the 90 exact nearest neighbours, initialised from the leading components; 3-D by Barnes–Hut, up to 3,000 cells) or UMAP (fuzzy graph of the 15 nearest neighbours, umap-learn's optimisation, min_dist by cell count), with the analysis' seed.",
    'zh-CN':
      '该布局在分析完成后，基于分析所存储的降维表示（其邻居图所用的主成分；若做过批次校正，则为校正后的主成分），按与分析完全相同的方法计算：t-SNE（openTSNE 的 FFT 加速优化，困惑度 30，基于 90 个精确最近邻，以前几个主成分初始化；三维 t-SNE 用 Barnes–Hut，最多 3000 个细胞）或 UMAP（15 个最近邻的模糊图，umap-learn 的优化，min_dist 随细胞数而定），使用与分析相同的随机种子。',
    citations: [
      'van der Maaten L, Hinton G. Visualizing data using t-SNE. JMLR 2008;9:2579–2605.',
      'Poličar PG, Stražar M, Zupan B. openTSNE: a modular Python library for t-SNE dimensionality reduction and embedding. J Stat Softw 2024;109(3):1–30.',
      'McInnes L, Healy J, Melville J. UMAP: Uniform Manifold Approximation and Projection for dimension reduction. arXiv 2018;1802.03426.',
    ],
  },
  params: layoutParams,
  summary: layoutSummary,
  permission: 'exploreCellularComposition',
  species: 'any',
  tab: 'cellularComposition',
  timeoutMinutes: 120,
  fields: {
    layout: { kind: 'options', values: LAYOUT_KINDS },
    seed: { advanced: true },
  },
  messages: taskFailures('layout', en.failures, zh.failures),
  // the computed layout joins the explorer's embedding choice under the analysis' own name
  explorerEmbedding: (p) => ({
    name: p.layout,
    dims: p.layout === 'tsne' ? 2 : 3,
    file: `data/${LAYOUT_DATA_FILE}`,
  }),
});
