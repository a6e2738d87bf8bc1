import { registerMessages } from '../../i18n/translate';

/** Messages of the job-backed DE (docs/product/errors.md#messages wording where the product docs give one). */
registerMessages({
  'en-US': {
    'explore.deg.busy': 'Other calculation is in progress. Please wait a moment',
    'explore.deg.failed': 'Cluster DEGs calculation failed, please try again.',
    'explore.deg.running':
      'The calculation is still running. Refresh the page in a moment to see the result.',
    'explore.deg.notFound': 'This calculation does not exist. Refresh the page.',
    'explore.deg.tooFewCells':
      'Group "{group}" has {cells} cells; differential analysis needs at least {min} cells in each group.',
    'explore.deg.oneGroup': '"{key}" has only one group; cluster genes need at least two groups.',
    'explore.deg.overlap': 'The two groups share cells; choose groups that do not overlap.',
    'explore.deg.restFirst': '"The rest" can only be the second group; choose a first group.',
    'explore.subcluster.copyFirst':
      'Raw cluster, major cell types and cell subtypes groups must be copied before subclustering or extraction. Copy "{key}" into a subset first.',
    'explore.subcluster.tooFewCells':
      'The selection has {cells} cells; sub-celltype analysis needs at least {min} cells.',
    'explore.tiff.invalidSvg':
      'The image could not be converted to TIFF: {detail}. Export it as SVG or PNG instead.',
  },
  'zh-CN': {
    'explore.deg.busy': '其他计算正在进行中，请稍候',
    'explore.deg.failed': '簇差异基因计算失败，请重试。',
    'explore.deg.running': '计算仍在进行中，请稍后刷新页面查看结果。',
    'explore.deg.notFound': '该计算不存在，请刷新页面。',
    'explore.deg.tooFewCells': '分组“{group}”只有 {cells} 个细胞；差异分析要求每组至少 {min} 个细胞。',
    'explore.deg.oneGroup': '“{key}”只有一个分组；计算簇基因至少需要两个分组。',
    'explore.deg.overlap': '两个分组包含相同的细胞，请选择互不重叠的分组。',
    'explore.deg.restFirst': '“其余细胞”只能作为第二组，请先选择第一组。',
    'explore.subcluster.copyFirst':
      '原始聚类、主要细胞类型和细胞亚型分组须先复制后才能进行亚群聚类或提取。请先将“{key}”复制为子集。',
    'explore.subcluster.tooFewCells': '所选细胞只有 {cells} 个；亚细胞类型分析至少需要 {min} 个细胞。',
    'explore.tiff.invalidSvg': '图像无法转换为 TIFF：{detail}。请改为导出 SVG 或 PNG。',
  },
});
