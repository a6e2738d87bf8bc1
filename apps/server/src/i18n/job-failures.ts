import { registerMessages } from './translate';

/**
 * Why an analysis failed, in both languages: engine error codes (packages/engine/src/errors.ts,
 * `engine.<CODE>`) and the job runner's own permanent failures. Placeholders come from the
 * error's params.
 */
registerMessages({
  'en-US': {
    'engine.NO_SAMPLES': 'Please select samples.',
    'engine.TOO_FEW_CELLS': 'Sample "{sample}" has {cells} cells; a sample must have more than {min} cells.',
    'engine.TOO_MANY_CELLS':
      'Sample "{sample}" has {cells} cells; a sample must have fewer than {max} cells.',
    'engine.MIXED_SPECIES': 'Please enter the correct species: the samples are {found}, not {expected}.',
    'engine.DUPLICATE_SAMPLE_NAME': 'name exists, please type another (sample "{name}")',
    'engine.INVALID_PARAMS': 'Required parameter missing or invalid: {issues}',
    'engine.NO_CELLS_AFTER_FILTER':
      'No cell of sample "{sample}" passes the cell filters; widen the gene, UMI or mitochondrial thresholds and submit again.',
    'engine.CELL_CYCLE_SPECIES':
      'Cell-cycle removal works only for human or mouse data, and needs the cell-cycle genes in the dataset.',
    'engine.BATCH_KEY_MISSING': 'Batch-effect removal needs the column "{key}" in the cell metadata.',
    'engine.GROUP_TOO_SMALL':
      'Group "{group}" has {cells} cells; differential analysis needs at least {min} cells per group.',
    'engine.MEMORY_BUDGET': 'This analysis needs more memory than a worker may use; select fewer samples.',
    'jobs.failure.sampleGone':
      'Sample "{name}" is no longer available (deleted or not Completed); re-initiate from upload.',
    'jobs.failure.memory':
      'This analysis needs about {need} MiB but a worker may use {limit} MiB; select fewer samples or ask the administrator to raise WORKER_MEMORY_MB.',
    'jobs.failure.memoryDeg':
      'This calculation needs about {need} MiB but a worker may use {limit} MiB; ask the administrator to raise WORKER_MEMORY_MB.',
    'jobs.failure.memoryNotStreamed':
      'This analysis needs about {need} MiB but a worker may use {limit} MiB. Analyses of this size run out of core only without ambient RNA removal, cell-cycle regression, Pearson highly variable genes and batch correction by a metadata column other than Sample ID: turn those off, or select fewer samples.',
    'jobs.failure.memorySubcluster':
      'This sub-celltype analysis needs about {need} MiB but a worker may use {limit} MiB; select fewer cells or ask the administrator to raise WORKER_MEMORY_MB.',
    'jobs.failure.parentGone':
      'The parent analysis of this sub-celltype analysis was deleted; start it again from a result.',
    'jobs.failure.parentFilesGone':
      'The parent analysis files are gone; re-run the parent analysis, then start the sub-celltype analysis again.',
  },
  'zh-CN': {
    'engine.NO_SAMPLES': '请选择样本。',
    'engine.TOO_FEW_CELLS': '样本“{sample}”只有 {cells} 个细胞；每个样本的细胞数须多于 {min}。',
    'engine.TOO_MANY_CELLS': '样本“{sample}”有 {cells} 个细胞；每个样本的细胞数须少于 {max}。',
    'engine.MIXED_SPECIES': '请输入正确的物种：样本物种为 {found}，而非 {expected}。',
    'engine.DUPLICATE_SAMPLE_NAME': '名称已存在，请重新输入（样本“{name}”）',
    'engine.INVALID_PARAMS': '缺少必需参数或参数无效：{issues}',
    'engine.NO_CELLS_AFTER_FILTER':
      '样本“{sample}”没有细胞通过细胞过滤；请放宽基因数、UMI 或线粒体阈值后重新提交。',
    'engine.CELL_CYCLE_SPECIES': '去除细胞周期效应仅适用于人或小鼠数据，且数据集中须包含细胞周期基因。',
    'engine.BATCH_KEY_MISSING': '去除批次效应需要细胞元数据中的列“{key}”。',
    'engine.GROUP_TOO_SMALL': '分组“{group}”只有 {cells} 个细胞；差异分析要求每组至少 {min} 个细胞。',
    'engine.MEMORY_BUDGET': '该分析所需内存超过单个计算节点的上限；请减少样本。',
    'jobs.failure.sampleGone': '样本“{name}”已不可用（已删除或未完成解析）；请重新上传。',
    'jobs.failure.memory':
      '该分析约需 {need} MiB 内存，而计算节点上限为 {limit} MiB；请减少样本或请管理员调高 WORKER_MEMORY_MB。',
    'jobs.failure.memoryDeg':
      '该计算约需 {need} MiB 内存，而计算节点上限为 {limit} MiB；请管理员调高 WORKER_MEMORY_MB。',
    'jobs.failure.memoryNotStreamed':
      '该分析约需 {need} MiB 内存，但单个计算节点最多可用 {limit} MiB。此规模的分析只有在关闭环境 RNA 去除、细胞周期效应去除、Pearson 高变基因以及按 Sample ID 以外的元数据列去除批次效应时才能以外存模式运行：请关闭这些选项，或减少样本。',
    'jobs.failure.memorySubcluster':
      '该亚细胞类型分析约需 {need} MiB 内存，而计算节点上限为 {limit} MiB；请减少所选细胞或请管理员调高 WORKER_MEMORY_MB。',
    'jobs.failure.parentGone': '该亚细胞类型分析的父分析已被删除；请从分析结果重新发起。',
    'jobs.failure.parentFilesGone':
      '父分析的结果文件已不存在；请重新运行父分析，然后再次发起亚细胞类型分析。',
  },
});
