/**
 * Messages every task can raise (engine `TaskError('common.<x>')`), in the wording of
 * docs/product/validation.md where it gives one. Task-specific messages live in the task's folder
 * (packages/tasks/src/<task>/messages).
 */
export const COMMON_TASK_MESSAGES = {
  'en-US': {
    'common.speciesHumanOnly': 'This analysis supports human data only (the dataset is {species}).',
    'common.speciesHumanMouse':
      'This analysis supports human and mouse data only (the dataset is {species}).',
    'common.speciesConvert':
      'No orthologue table for {species}: please convert the data to human or mouse genes.',
    'common.groupByMissing': 'The annotation level "{key}" does not exist in this analysis.',
    'common.groupValueMissing': 'The annotation level "{key}" has no group "{value}".',
    'common.tooFewCells': 'Group "{group}" has {cells} cells; at least {min} are needed.',
    'common.oneGroup': '"{key}" has only one group; this analysis needs at least two.',
    'common.emptyGroup': 'No cell matches group {group}.',
    'common.resourceMissing':
      'The reference resource "{path}" is not installed on this server; ask the administrator to configure it.',
    'common.geneSetFile': 'The gene set file is not valid: {detail}. Provide one gene per line, no header.',
    'common.noGenesMatched': 'None of the {given} genes was found in this dataset.',
    'common.cancelled': 'The analysis was cancelled.',
    'common.invalidParams': 'The parameters are not valid: {detail}',
    'common.overBudget':
      'This analysis needs about {neededMb} MB of memory, more than the {budgetMb} MB a worker may use.',
    'common.timeout': 'The analysis did not finish within {minutes} minutes.',
    'common.internal': 'The analysis failed unexpectedly. Please try again later.',
  },
  'zh-CN': {
    'common.speciesHumanOnly': '该分析仅支持人类数据（当前数据为 {species}）。',
    'common.speciesHumanMouse': '该分析仅支持人类和小鼠数据（当前数据为 {species}）。',
    'common.speciesConvert': '没有 {species} 的同源基因表：请将数据转换为人类或小鼠基因。',
    'common.groupByMissing': '该分析中不存在注释层级“{key}”。',
    'common.groupValueMissing': '注释层级“{key}”中没有分组“{value}”。',
    'common.tooFewCells': '分组“{group}”只有 {cells} 个细胞；至少需要 {min} 个。',
    'common.oneGroup': '“{key}”只有一个分组；该分析至少需要两个分组。',
    'common.emptyGroup': '没有细胞属于分组 {group}。',
    'common.resourceMissing': '服务器未安装参考资源“{path}”，请联系管理员配置。',
    'common.geneSetFile': '基因集文件无效：{detail}。请每行提供一个基因，不要表头。',
    'common.noGenesMatched': '所给的 {given} 个基因在该数据集中均未找到。',
    'common.cancelled': '分析已取消。',
    'common.invalidParams': '参数无效：{detail}',
    'common.overBudget': '该分析约需 {neededMb} MB 内存，超过计算节点可用的 {budgetMb} MB。',
    'common.timeout': '分析未能在 {minutes} 分钟内完成。',
    'common.internal': '分析意外失败，请稍后重试。',
  },
} as const;
