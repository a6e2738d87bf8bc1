/**
 * Translation keys that are chosen at run time, spelled out literally so the locale checks can see
 * every key the code uses (explore namespace).
 */
export const LEVEL_KEYS: Record<string, string> = {
  annot_full: 'levels.annot_full',
  annot_sub: 'levels.annot_sub',
  annot_sub2: 'levels.annot_sub2',
  annot_article: 'levels.annot_article',
  annot_auto: 'levels.annot_auto',
  cluster: 'levels.cluster',
  seurat_clusters: 'levels.seurat_clusters',
  'Sample ID': 'levels.sampleId',
};

export const LAYER_KEYS = { counts: 'layers.counts', normalized: 'layers.normalized' } as const;

export const TAB_TITLE_KEYS: Record<string, string> = {
  cellQuality: 'tabs.title.cellQuality',
  geneExpression: 'tabs.title.geneExpression',
  cellularComposition: 'tabs.title.cellularComposition',
  differentialExpression: 'tabs.title.differentialExpression',
  cellInteractions: 'tabs.title.cellInteractions',
  trajectory: 'tabs.title.trajectory',
  cnv: 'tabs.title.cnv',
  ith: 'tabs.title.ith',
  vdj: 'tabs.title.vdj',
  tfRegulation: 'tabs.title.tfRegulation',
  cellAnnotations: 'tabs.title.cellAnnotations',
};

export const TAB_NEEDS_KEYS: Record<string, string> = {
  cellQuality: 'tabs.needs.cellQuality',
  geneExpression: 'tabs.needs.geneExpression',
  cellularComposition: 'tabs.needs.cellularComposition',
  differentialExpression: 'tabs.needs.differentialExpression',
  cellInteractions: 'tabs.needs.cellInteractions',
  trajectory: 'tabs.needs.trajectory',
  cnv: 'tabs.needs.cnv',
  ith: 'tabs.needs.ith',
  vdj: 'tabs.needs.vdj',
  tfRegulation: 'tabs.needs.tfRegulation',
  cellAnnotations: 'tabs.needs.cellAnnotations',
};

export const QC_METRIC_KEYS: Record<string, string> = {
  genes: 'quality.metric.genes',
  umis: 'quality.metric.umis',
  mito: 'quality.metric.mito',
  ribo: 'quality.metric.ribo',
};

export const PLOT_KEYS = { feature: 'gene.plot.feature', violin: 'gene.plot.violin', dot: 'gene.plot.dot', heatmap: 'gene.plot.heatmap' } as const;

export const DEG_COLUMN_KEYS: Record<string, string> = {
  cluster: 'deg.col.cluster',
  gene: 'deg.col.gene',
  avgExpr: 'deg.col.avgExpr',
  log2fc: 'deg.col.log2fc',
  pct1: 'deg.col.pct1',
  zscore: 'deg.col.zscore',
  pval: 'deg.col.pval',
  padj: 'deg.col.padj',
  pct2: 'deg.col.pct2',
};
