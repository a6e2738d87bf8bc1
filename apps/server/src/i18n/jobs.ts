import { registerMessages } from './translate';

/** Messages of the jobs / wizard / notifications area (docs/product/validation.md, docs/product/errors.md#messages). */
registerMessages({
  'en-US': {
    'wizard.jobName.required': 'Please fill in the job name',
    'wizard.sampleName.required': 'Please enter the sample ID',
    'wizard.group.required': 'Please fill in the sample group name',
    'wizard.name.tooLong': 'The name is too long (at most 100 characters)',
    'wizard.name.invalid':
      'No spaces at the start, special symbols or Chinese characters; start with a letter or underscore, not a digit or symbol',
    'wizard.name.exists': 'name exists, please type another',
    'wizard.samples.required': 'Please select samples',
    'wizard.samples.notAnalysable':
      'A selected sample is not a Completed upload of yours ({detail}); re-initiate from upload',
    'wizard.species.mixed': 'Selected samples must share one species (found: {detail})',
    'wizard.species.required': 'Please enter the correct species',
    'wizard.species.mismatch': 'Please enter the correct species: the samples are {detail}',
    'wizard.species.unsupported':
      'Please enter the correct species: {detail} must be converted to human or mouse first',
    'wizard.ambient.tooFewCells': 'Ambient RNA removal needs more than 100 cells per sample ({detail})',
    'wizard.reference.required': 'Please choose reference species for annotation',
    'wizard.tissue.required': 'Please specify tissue type',
    'jobs.cannotSuspend': 'Job unable to suspend: it is {detail}',
    'jobs.cannotResume': 'Job unable to resume: it is {detail}',
    'jobs.childNotEditable':
      'This sub-celltype analysis was started from the explorer; start a new one from its subset instead of re-editing it.',
  },
  'zh-CN': {
    'wizard.jobName.required': '请填写任务名称',
    'wizard.sampleName.required': '请输入样本ID',
    'wizard.group.required': '请填写样本分组名称',
    'wizard.name.tooLong': '名称过长（最多100个字符）',
    'wizard.name.invalid': '不能包含空格开头、特殊符号或中文，须以字母或下划线开头，不能以数字或符号开头',
    'wizard.name.exists': '名称已存在，请重新输入',
    'wizard.samples.required': '请选择样本',
    'wizard.samples.notAnalysable': '所选样本不是您已完成解析的上传（{detail}），请重新上传',
    'wizard.species.mixed': '所选样本必须属于同一物种（发现：{detail}）',
    'wizard.species.required': '请输入正确的物种',
    'wizard.species.mismatch': '请输入正确的物种：样本物种为 {detail}',
    'wizard.species.unsupported': '请输入正确的物种：{detail} 需先转换为人或小鼠',
    'wizard.ambient.tooFewCells': '去除环境RNA要求每个样本超过100个细胞（{detail}）',
    'wizard.reference.required': '请选择注释参考物种',
    'wizard.tissue.required': '请指定组织类型',
    'jobs.cannotSuspend': '任务无法暂停：当前状态为 {detail}',
    'jobs.cannotResume': '任务无法恢复：当前状态为 {detail}',
    'jobs.childNotEditable': '该亚细胞类型分析由结果浏览页面发起，无法重新编辑；请从对应子集重新发起。',
  },
});
