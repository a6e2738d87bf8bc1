import { z } from 'zod';
import { defineTask, groupByKey } from '@cellcloud/contracts/tasks/define';
import { taskFailures } from '../_shared/contract/messages';
import en from './messages/en-US.json';
import zh from './messages/zh-CN.json';
import { seedParam } from '../_shared/contract/schemas';

/**
 * Trajectory step 1, Monocle 3 semantics (docs/product/screens.md "trajectory step 1", docs/methods/monocle3.md): cells of the
 * chosen cell types (any annotation level) and samples, the stored UMAP or a re-reduction (vst 2000
 * → PCA 20 → optional Harmony → UMAP), at most `cellsPerGroup` cells per type (seeded),
 * `cluster_cells(k)` partitions, `learn_graph` (SimplePPT principal graph per partition),
 * `order_cells` from automatic roots (per root cell type, the principal node closest to most of its
 * cells) or the user's principal nodes, `graph_test` (Moran's I on the principal-graph kNN) and
 * `find_gene_modules` (Louvain on the gene UMAP).
 * Outputs: tables/cells.csv (barcode, celltype, partition, pseudotime), tables/graph_test.csv (every
 * tested gene), tables/gene_modules.csv (docs/product/screens.md Monocle columns, genes with q ≤ qValue),
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
    /** Root cell type(s): automatic roots from these types (default: every cell type, as docs/methods/monocle3.md). */
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
    /** Principal-graph nodes picked as roots (`Y_<n>`, the product's `nodelist`, docs/product/screens.md); override `root`. */
    rootNodes: z
      .array(z.string().regex(/^Y_\d+$/))
      .min(1)
      .max(200)
      .optional(),
    /** Re-reduce (vst 2000 → PCA 20 → optional Harmony → UMAP) instead of using the stored UMAP. */
    reReduce: z.boolean().default(false),
    /** Harmony on this annotation level when re-reducing (`remove_batch` of docs/methods/monocle3.md). */
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
    seed: seedParam(1),
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

export const definition = defineTask({
  name: 'monocle3',
  titleKey: 'monocle3.title',
  displayName: { 'en-US': 'Trajectory (Monocle 3 principal graph)', 'zh-CN': '轨迹分析（Monocle 3 主图）' },
  order: 80,
  method: {
    'en-US':
      "Cells of the chosen cell types and samples were placed on the stored UMAP (or a re-reduction: 2,000 variable genes, PCA with 20 components, optional Harmony, UMAP) and analysed with Monocle 3: cluster_cells partitions, a principal graph per partition by learn_graph, pseudotime by order_cells from the chosen roots, genes varying over the graph by graph_test (Moran's I) and gene modules by find_gene_modules (Louvain).",
    'zh-CN':
      "将所选细胞类型和样本的细胞置于已存储的 UMAP（或重新降维：2000 个高变基因、20 个主成分的 PCA、可选 Harmony、UMAP）上，用 Monocle 3 分析：cluster_cells 划分分区，learn_graph 为每个分区学习主图，order_cells 从所选根计算拟时序，graph_test（Moran's I）识别沿主图变化的基因，find_gene_modules（Louvain）划分基因模块。",
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
    reReduce: { advanced: true },
    cellsPerGroup: { advanced: true },
    k: { advanced: true },
    qValue: { advanced: true },
    resolution: { advanced: true },
    seed: { advanced: true },
  },
  messages: taskFailures('monocle3', en.failures, zh.failures),
});
