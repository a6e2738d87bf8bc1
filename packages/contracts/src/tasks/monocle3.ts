import { z } from 'zod';
import { defineTask, groupByKey } from './define';

/**
 * Trajectory step 1, Monocle 3 semantics (SPEC §3 "trajectory step 1", METHODS §6.2): cells of the
 * chosen cell types (any annotation level) and samples, the stored UMAP or a re-reduction (vst 2000
 * → PCA 20 → optional Harmony → UMAP), at most `cellsPerGroup` cells per type (seeded),
 * `cluster_cells(k)` partitions, `learn_graph` (SimplePPT principal graph per partition),
 * `order_cells` from automatic roots (per root cell type, the principal node closest to most of its
 * cells) or the user's principal nodes, `graph_test` (Moran's I on the principal-graph kNN) and
 * `find_gene_modules` (Louvain on the gene UMAP).
 * Outputs: tables/cells.csv (barcode, celltype, partition, pseudotime), tables/graph_test.csv (every
 * tested gene), tables/gene_modules.csv (SPEC §3 Monocle columns, genes with q ≤ qValue),
 * tables/module_celltype.csv, tables/nodes.csv (principal node ID, UMAP_1, UMAP_2), data/graph.json
 * (nodes, edges, roots, cell coordinates), data/genes_in_pseudotime.json; per-cell obs
 * `monocle3_pseudotime` and `monocle3_partition`.
 */
export const monocle3Params = z
  .object({
    /** Annotation level whose groups are the cell types. */
    groupBy: groupByKey.default('cluster'),
    /** Cell types kept (default: all). */
    groups: z.array(z.string().max(500)).min(1).max(500).optional(),
    /** Values of `Sample ID` kept (default: all). */
    samples: z.array(z.string().max(500)).min(1).max(500).optional(),
    /** Root cell type(s): automatic roots from these types (default: every cell type, as METHODS §6.2). */
    root: z
      .union([
        z.string().min(1).max(500),
        z.number().transform(String),
        z
          .array(z.union([z.string().min(1).max(500), z.number().transform(String)]))
          .min(1)
          .max(500),
      ])
      .optional(),
    /** Principal-graph nodes picked as roots (`Y_<n>`, SPEC `nodelist`); override `root`. */
    rootNodes: z
      .array(z.string().regex(/^Y_\d+$/))
      .min(1)
      .max(200)
      .optional(),
    /** Re-reduce (vst 2000 → PCA 20 → optional Harmony → UMAP) instead of using the stored UMAP. */
    reReduce: z.boolean().default(false),
    /** Harmony on this annotation level when re-reducing (METHODS `remove_batch`). */
    batchKey: groupByKey.optional(),
    /** Downsampling: at most this many cells per cell type. */
    cellsPerGroup: z.number().int().min(10).max(100_000).default(1000),
    /** cluster_cells k. */
    k: z.number().int().min(5).max(100).default(20),
    /** graph_test q-value threshold of the gene modules. */
    qValue: z.number().gt(0).max(1).default(0.05),
    /** find_gene_modules resolution. */
    resolution: z.number().gt(0).max(10).default(0.001),
    /** Genes shown along pseudotime (default: top 10 by Moran's I). */
    genes: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .strict();
export type Monocle3Params = z.infer<typeof monocle3Params>;

export const monocle3Summary = z.object({
  groupBy: z.string(),
  cellTypes: z.array(z.object({ name: z.string(), cells: z.number().int(), used: z.number().int() })),
  nCells: z.number().int(),
  embedding: z.enum(['umap', 'reReduced']),
  nPartitions: z.number().int(),
  nNodes: z.number().int(),
  roots: z.array(z.string()),
  rootSource: z.enum(['celltype', 'nodes']),
  maxPseudotime: z.number(),
  nGenesTested: z.number().int(),
  nGenesSignificant: z.number().int(),
  nModules: z.number().int(),
  topGenes: z.array(z.string()),
  qValue: z.number(),
});
export type Monocle3Summary = z.infer<typeof monocle3Summary>;

/** data/graph.json */
export interface Monocle3Graph {
  nodes: { id: string; x: number; y: number; partition: string }[];
  edges: [string, string][];
  roots: string[];
  /** The cells used, in tables/cells.csv order: their 2D coordinates (stored or re-reduced UMAP). */
  cells: { x: number[]; y: number[]; pseudotime: (number | null)[]; celltype: string[]; partition: string[] };
}

/** data/genes_in_pseudotime.json: size-factor-normalised expression averaged in 100 pseudotime bins. */
export interface GenesInPseudotime {
  binCenters: number[];
  genes: { gene: string; means: number[]; moransI: number | null }[];
}

export const monocle3Task = defineTask({
  name: 'monocle3',
  titleKey: 'monocle3.title',
  displayName: { 'en-US': 'Trajectory (Monocle 3 principal graph)', 'zh-CN': '轨迹分析（Monocle 3 主图）' },
  order: 80,
  method: {
    citations: [
      'Cao J, et al. The single-cell transcriptional landscape of mammalian organogenesis. Nature 2019;566:496–502.',
    ],
  },
  params: monocle3Params,
  summary: monocle3Summary,
  permission: 'exploreTrajectory',
  species: 'any',
  tab: 'trajectory',
  timeoutMinutes: 60,
  fields: {
    groupBy: { kind: 'level' },
    batchKey: { kind: 'level' },
    genes: { kind: 'genes' },
    rootNodes: { kind: 'hidden' },
  },
  messages: {
    'en-US': {
      'monocle3.tooFewCells':
        'Only {cells} cells match the chosen cell types and samples; at least {min} are needed.',
      'monocle3.noUmap': 'This analysis has no UMAP embedding; choose "re-reduce" to compute one.',
      'monocle3.unknownNode': 'The principal graph has no node "{node}"; pick roots on the current graph.',
      'monocle3.unknownGroup': '"{key}" has no group "{value}".',
      'monocle3.samplesMissing': 'This analysis has no "Sample ID" column to select samples.',
      'monocle3.rootNotKept': 'The root cell type "{value}" is not among the chosen cell types.',
    },
    'zh-CN': {
      'monocle3.tooFewCells': '所选细胞类型和样本只有 {cells} 个细胞；至少需要 {min} 个。',
      'monocle3.noUmap': '该分析没有 UMAP 降维结果；请选择“重新降维”以计算。',
      'monocle3.unknownNode': '主图中没有节点“{node}”；请在当前主图上选择根节点。',
      'monocle3.unknownGroup': '“{key}”中没有分组“{value}”。',
      'monocle3.samplesMissing': '该分析没有“Sample ID”列，无法选择样本。',
      'monocle3.rootNotKept': '根细胞类型“{value}”不在所选细胞类型中。',
    },
  },
});
