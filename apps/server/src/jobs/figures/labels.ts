import type { Locale } from '@cellcloud/contracts';
import { registerMessages, translate } from '../../i18n/translate';

/** Labels of the server-rendered figures and the README of the tables / figures zips (issue 21). */
registerMessages({
  'en-US': {
    'downloads.figures.embedding': '{embedding} coloured by {level}',
    'downloads.figures.qc': '{metric} by sample',
    'downloads.figures.sample': 'Sample',
    'downloads.figures.allCells': 'All cells',
    'downloads.figures.dotplot': 'Top marker genes by {level}',
    'downloads.figures.gene': 'Gene',
    'downloads.figures.pctExpressing': 'Cells expressing (%)',
    'downloads.figures.avgExpr': 'Average expression',
    'downloads.figures.composition': 'Composition of {level} by sample',
    'downloads.figures.fraction': 'Fraction of cells (%)',
    'downloads.figures.volcano': 'Volcano plot: {name}',
    'downloads.figures.log2fc': 'log2 fold change',
    'downloads.figures.negLog10Padj': '−log10 adjusted p',
    'downloads.figures.up': 'Up',
    'downloads.figures.down': 'Down',
    'downloads.figures.ns': 'Not significant',
    'downloads.figures.enrichment': 'Enrichment: {name}',
    'downloads.figures.gsea': 'GSEA normalized enrichment score',
    'downloads.figures.count': 'Count',
    'downloads.readme.figures':
      'Figures of the result "{name}", rendered on the server. Each figure is an SVG (vector; embeddings with more than {raster} cells carry their points as an embedded image) and a PNG at {scale}× the SVG size.',
    'downloads.readme.tables':
      'Tables of the result "{name}": every table as CSV (UTF-8, header row, documented column names) and tables.xlsx with one sheet per table.',
    'downloads.readme.tooBig':
      'Not in tables.xlsx ({rows} rows; a sheet holds at most {max}): {file} — use the CSV.',
  },
  'zh-CN': {
    'downloads.figures.embedding': '{embedding}（按 {level} 着色）',
    'downloads.figures.qc': '各样本的 {metric}',
    'downloads.figures.sample': '样本',
    'downloads.figures.allCells': '全部细胞',
    'downloads.figures.dotplot': '按 {level} 分组的主要标记基因',
    'downloads.figures.gene': '基因',
    'downloads.figures.pctExpressing': '表达细胞比例（%）',
    'downloads.figures.avgExpr': '平均表达量',
    'downloads.figures.composition': '各样本中 {level} 的组成',
    'downloads.figures.fraction': '细胞比例（%）',
    'downloads.figures.volcano': '火山图：{name}',
    'downloads.figures.log2fc': 'log2 倍数变化',
    'downloads.figures.negLog10Padj': '−log10 校正 p 值',
    'downloads.figures.up': '上调',
    'downloads.figures.down': '下调',
    'downloads.figures.ns': '不显著',
    'downloads.figures.enrichment': '富集分析：{name}',
    'downloads.figures.gsea': 'GSEA 标准化富集分数',
    'downloads.figures.count': '数量',
    'downloads.readme.figures':
      '结果“{name}”的图片，由服务器绘制。每张图有 SVG（矢量；细胞数超过 {raster} 的降维图以内嵌图像绘制散点）和 PNG（SVG 尺寸的 {scale} 倍）。',
    'downloads.readme.tables':
      '结果“{name}”的表格：每个表格为一个 CSV（UTF-8，含表头，列名见文档），另有 tables.xlsx，每个表格一个工作表。',
    'downloads.readme.tooBig':
      '未放入 tables.xlsx（{rows} 行；一个工作表最多 {max} 行）：{file}，请使用 CSV。',
  },
});

export type Label = (key: string, params?: Record<string, unknown>) => string;

/** The figure labels of one language. */
export function labelsOf(lang: Locale): Label {
  return (key, params = {}) => translate(lang, `downloads.${key}`, params);
}
