import { z } from 'zod';
import { LIMITS } from '../constants';
import { groupSpec } from './define';

/**
 * Shared pieces of the enrichment tasks (issue 15): deg-groups (step 1), enrich (step 2, ORA),
 * gsea and gsva (docs/methods/deg-groups.md, enrich.md, gsea.md, gsva.md).
 */

/**
 * Built-in gene set libraries, read through the ResourceReader relative to the resources root
 * (`gene_sets/…` of the reference data). All human, gene symbols.
 */
export const GENE_SET_LIBRARIES = {
  go_bp: { path: 'gene_sets/enrichr_GO_Biological_Process_2021_human.gmt.gz', labelKey: 'libraries.go_bp' },
  reactome: { path: 'gene_sets/enrichr_Reactome_2022_human.gmt.gz', labelKey: 'libraries.reactome' },
  wikipathways: {
    path: 'gene_sets/wikipathways_20230410_human_symbols.gmt.gz',
    labelKey: 'libraries.wikipathways',
  },
  hallmark: { path: 'gene_sets/h.all.v7.0.symbols.gmt.gz', labelKey: 'libraries.hallmark' },
} as const;
export const geneSetLibraryIds = ['go_bp', 'reactome', 'wikipathways', 'hallmark'] as const;
export const geneSetLibraryId = z.enum(geneSetLibraryIds);
export type GeneSetLibraryId = z.infer<typeof geneSetLibraryId>;
/** A library id or `custom` (the run's uploaded GMT, upload field `geneSets`). */
export const geneSetSource = z.enum([...geneSetLibraryIds, 'custom']);
export type GeneSetSource = z.infer<typeof geneSetSource>;

/** Upload field name of a user GMT (TaskRunContext.uploads key). */
export const GMT_UPLOAD_FIELD = 'geneSets';

/**
 * Columns of the step-1 DEG tables `tables/group1.csv` / `group2.csv` (one per direction): the DEG
 * columns of docs/product/entities.md (field names of contracts' DegRow) plus `mean` = log2(mean of expm1(normalized) in
 * the group + 1) of docs/methods/deg-groups.md.
 */
export const DEG_GROUP_COLUMNS = [
  'cluster',
  'gene',
  'avgExpr',
  'log2fc',
  'pct1',
  'pct2',
  'zscore',
  'pval',
  'padj',
  'mean',
] as const;

/** Columns of the ORA tables (clusterProfiler's enrichResult). */
export const ORA_COLUMNS = [
  'ID',
  'Description',
  'GeneRatio',
  'BgRatio',
  'pvalue',
  'p.adjust',
  'qvalue',
  'geneID',
  'Count',
] as const;

/** Columns of the GSEA table (clusterProfiler's gseaResult, docs/methods/gsea.md). */
export const GSEA_COLUMNS = [
  'ID',
  'Description',
  'setSize',
  'enrichmentScore',
  'NES',
  'pvalue',
  'p.adjust',
  'qvalue',
  'rank',
  'leading_edge',
  'core_enrichment',
] as const;

/** The two groups of a one-vs-one comparison (docs/methods/deg-groups.md). */
export const comparisonParams = {
  group1: groupSpec,
  group2: groupSpec,
  /** Cells matching both groups: refused (default) or dropped from both. */
  overlap: z.enum(['refuse', 'drop']).default('refuse'),
};

export const groupCount = z.object({ label: z.string(), cells: z.number().int() }).strict();

/** Messages shared by the four enrichment tasks (keys WITHOUT the `task.` prefix). */
export const ENRICHMENT_MESSAGES = {
  'en-US': {
    'enrichment.overlap':
      '{cells} cells match both groups; make the groups disjoint or choose to drop shared cells.',
    'enrichment.noGeneSets': 'No gene set of "{library}" has between {min} and {max} genes of this dataset.',
    'enrichment.gmtNoMatch':
      'None of the genes of the uploaded gene set file matches a gene of this dataset.',
    'enrichment.gmtInvalid': 'The gene set file is not a valid GMT file: {detail}.',
    'enrichment.gmtMissing': 'Upload a GMT file to use custom gene sets.',
    'enrichment.noSource': 'Give the two groups, or run step 1 (differential expression) first.',
    'enrichment.noGenes': 'No gene passes the filter for group "{group}"; relax the thresholds.',
    'enrichment.tooFewRanked':
      'Only {genes} genes are expressed in at least {pct}% of either group; GSEA needs at least 20.',
    'enrichment.pseudobulkSamples':
      'The pseudobulk test needs at least 2 samples per group ("{key}": group 1 has {n1}, group 2 has {n2}).',
    'enrichment.gsvaTooManyCells':
      'Per-cell GSVA is limited to {max} cells ({cells} selected); use per-group scores or a subset.',
    'enrichment.gsvaColumns': 'GSVA needs at least 2 columns (groups or cells); {n} found.',
  },
  'zh-CN': {
    'enrichment.overlap': '有 {cells} 个细胞同时属于两个分组；请使两个分组互不重叠，或选择剔除共享细胞。',
    'enrichment.noGeneSets': '“{library}”中没有包含本数据集 {min} 到 {max} 个基因的基因集。',
    'enrichment.gmtNoMatch': '上传的基因集文件中没有任何基因与本数据集的基因匹配。',
    'enrichment.gmtInvalid': '基因集文件不是有效的 GMT 文件：{detail}。',
    'enrichment.gmtMissing': '使用自定义基因集时请上传 GMT 文件。',
    'enrichment.noSource': '请指定两个分组，或先运行第一步（差异表达）。',
    'enrichment.noGenes': '分组“{group}”没有通过筛选的基因；请放宽阈值。',
    'enrichment.tooFewRanked':
      '仅有 {genes} 个基因在任一分组中至少 {pct}% 的细胞中表达；GSEA 至少需要 20 个。',
    'enrichment.pseudobulkSamples':
      '拟批量（pseudobulk）检验每组至少需要 2 个样本（“{key}”：分组 1 有 {n1} 个，分组 2 有 {n2} 个）。',
    'enrichment.gsvaTooManyCells':
      '单细胞 GSVA 最多支持 {max} 个细胞（当前 {cells} 个）；请使用分组得分或子集。',
    'enrichment.gsvaColumns': 'GSVA 至少需要 2 列（分组或细胞）；当前为 {n}。',
  },
} as const;

/**
 * The DEG display filter (docs/product/validation.md): log2 fold change ≥ 0.25, adjusted p ≤ 0.05
 * and the gene detected in ≥ 10 % of either group. The engine's counts and the web's table agree.
 */
export function passesDegDisplayFilter(
  r: { log2fc: number; padj: number; pct1: number; pct2: number },
  f: { log2fc: number; padj: number; pct: number } = LIMITS.degFilter,
): boolean {
  return r.log2fc >= f.log2fc && r.padj <= f.padj && (r.pct1 >= f.pct || r.pct2 >= f.pct);
}
