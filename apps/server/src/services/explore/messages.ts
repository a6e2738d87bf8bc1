import { registerMessages } from '../../i18n/translate';

/** Messages of the explore area (docs/product/errors.md#messages wording where the product docs give one). */
registerMessages({
  'en-US': {
    'explore.notReady':
      'This analysis has not finished yet (status: {status}). Open it again when it is completed.',
    'explore.noArtifacts': 'This analysis has no explorer results. Re-run the analysis to produce them.',
    'explore.badRange': 'The requested byte range {range} is outside the file ({size} bytes).',
    'explore.badPath': 'Invalid artifact path "{path}".',
    'explore.subset.hasChildren': 'The subset has subtasks, so it cannot be deleted or renamed.',
    'explore.subset.notFound': 'This subset does not exist any more. Refresh the page.',
    'explore.subset.nameExists': 'The name "{name}" exists, please type another.',
    'explore.annotation.notFound': 'The annotation "{key}" is not part of this analysis.',
    'explore.gene.notFound': 'The gene "{key}" is not part of this analysis.',
    'explore.annotation.notCategorical':
      'The annotation "{key}" holds numbers, not groups; choose a grouping.',
    'explore.labels.unknown': 'These groups do not exist in "{key}": {labels}.',
    'explore.cells.outOfRange':
      'The selection names cell {cell}, but the dataset has {nCells} cells. Refresh the page and select again.',
    'explore.colour.invalid': 'Colours must be written as #RRGGBB, for example #1f77b4.',
    'explore.colour.duplicate':
      'Clusters in one subset cannot share a colour: {a} and {b} would both be {colour}.',
    'explore.name.required': 'Please enter a name.',
    'explore.name.tooLong': 'The name is too long (at most 100 characters).',
    'explore.name.invalid':
      'Invalid name: use letters, digits, underscores, dots or spaces, starting with a letter or underscore (no special symbols or Chinese characters).',
    'explore.clusterName.invalid': 'Cluster names cannot contain special characters.',
    'explore.public.readOnly':
      'Public datasets are read only: open them in the explorer, or add them to an analysis of your own to change labels or run tasks.',
    'explore.public.notAnalysed':
      'The public dataset "{id}" has no standard analysis yet; an administrator re-ingests it to produce one.',
  },
  'zh-CN': {
    'explore.notReady': '该分析尚未完成（状态：{status}）。请在完成后再打开。',
    'explore.noArtifacts': '该分析没有可浏览的结果。请重新运行分析以生成结果。',
    'explore.badRange': '请求的字节范围 {range} 超出文件大小（{size} 字节）。',
    'explore.badPath': '无效的结果文件路径“{path}”。',
    'explore.subset.hasChildren': '该子集存在子任务，无法删除或重命名。',
    'explore.subset.notFound': '该子集已不存在，请刷新页面。',
    'explore.subset.nameExists': '名称“{name}”已存在，请输入其他名称。',
    'explore.annotation.notFound': '注释“{key}”不属于该分析。',
    'explore.gene.notFound': '基因“{key}”不属于该分析。',
    'explore.annotation.notCategorical': '注释“{key}”是数值而非分组，请选择一个分组。',
    'explore.labels.unknown': '“{key}”中不存在这些分组：{labels}。',
    'explore.cells.outOfRange':
      '所选内容包含细胞 {cell}，但数据集只有 {nCells} 个细胞。请刷新页面后重新选择。',
    'explore.colour.invalid': '颜色须为 #RRGGBB 格式，例如 #1f77b4。',
    'explore.colour.duplicate': '同一子集中的簇不能使用相同颜色：{a} 和 {b} 都将是 {colour}。',
    'explore.name.required': '请输入名称。',
    'explore.name.tooLong': '名称过长（最多 100 个字符）。',
    'explore.name.invalid':
      '名称无效：只能使用字母、数字、下划线、点或空格，并以字母或下划线开头（不能含特殊符号或中文）。',
    'explore.clusterName.invalid': '簇名称不能包含特殊字符。',
    'explore.public.readOnly':
      '公共数据集为只读：可在浏览器中查看，或将其加入您自己的分析后再修改标签或运行任务。',
    'explore.public.notAnalysed': '公共数据集“{id}”尚无标准分析；需由管理员重新导入以生成。',
  },
});
