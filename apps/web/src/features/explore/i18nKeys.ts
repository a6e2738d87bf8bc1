/**
 * Translation keys that are chosen at run time, spelled out literally so the locale checks can see
 * every key the code uses (explore namespace).
 */
export const LEVEL_KEYS: Record<string, string> = {
  annot_full: 'explore:levels.annot_full',
  annot_sub: 'explore:levels.annot_sub',
  annot_sub2: 'explore:levels.annot_sub2',
  annot_article: 'explore:levels.annot_article',
  annot_auto: 'explore:levels.annot_auto',
  cluster: 'explore:levels.cluster',
  seurat_clusters: 'explore:levels.seurat_clusters',
  'Sample ID': 'explore:levels.sampleId',
};

export const LAYER_KEYS = {
  counts: 'explore:layers.counts',
  normalized: 'explore:layers.normalized',
} as const;

export const TAB_TITLE_KEYS: Record<string, string> = {
  cellQuality: 'explore:tabs.title.cellQuality',
  geneExpression: 'explore:tabs.title.geneExpression',
  cellularComposition: 'explore:tabs.title.cellularComposition',
  differentialExpression: 'explore:tabs.title.differentialExpression',
  cellInteractions: 'explore:tabs.title.cellInteractions',
  trajectory: 'explore:tabs.title.trajectory',
  cnv: 'explore:tabs.title.cnv',
  ith: 'explore:tabs.title.ith',
  vdj: 'explore:tabs.title.vdj',
  tfRegulation: 'explore:tabs.title.tfRegulation',
  cellAnnotations: 'explore:tabs.title.cellAnnotations',
};

export const TAB_NEEDS_KEYS: Record<string, string> = {
  cellQuality: 'explore:tabs.needs.cellQuality',
  geneExpression: 'explore:tabs.needs.geneExpression',
  cellularComposition: 'explore:tabs.needs.cellularComposition',
  differentialExpression: 'explore:tabs.needs.differentialExpression',
  cellInteractions: 'explore:tabs.needs.cellInteractions',
  trajectory: 'explore:tabs.needs.trajectory',
  cnv: 'explore:tabs.needs.cnv',
  ith: 'explore:tabs.needs.ith',
  vdj: 'explore:tabs.needs.vdj',
  tfRegulation: 'explore:tabs.needs.tfRegulation',
  cellAnnotations: 'explore:tabs.needs.cellAnnotations',
};

export const QC_METRIC_KEYS: Record<string, string> = {
  genes: 'explore:quality.metric.genes',
  umis: 'explore:quality.metric.umis',
  mito: 'explore:quality.metric.mito',
  ribo: 'explore:quality.metric.ribo',
};

export const PLOT_KEYS = {
  feature: 'explore:gene.plot.feature',
  violin: 'explore:gene.plot.violin',
  dot: 'explore:gene.plot.dot',
  heatmap: 'explore:gene.plot.heatmap',
} as const;

export const DEG_COLUMN_KEYS: Record<string, string> = {
  cluster: 'explore:deg.col.cluster',
  gene: 'explore:deg.col.gene',
  avgExpr: 'explore:deg.col.avgExpr',
  log2fc: 'explore:deg.col.log2fc',
  pct1: 'explore:deg.col.pct1',
  zscore: 'explore:deg.col.zscore',
  pval: 'explore:deg.col.pval',
  padj: 'explore:deg.col.padj',
  pct2: 'explore:deg.col.pct2',
};

/** Names of the layouts a manifest can list as not computed (`layoutsNotComputed`). */
export const LAYOUT_KEYS: Record<string, string> = {
  umap: 'explore:viewer.layout.umap',
  tsne: 'explore:viewer.layout.tsne',
  umap3D: 'explore:viewer.layout.umap3D',
  tsne3D: 'explore:viewer.layout.tsne3D',
  spatial: 'explore:viewer.layout.spatial',
  pca: 'explore:viewer.layout.pca',
};
