import { registerMessages } from '../../i18n/translate';

/**
 * Problems of a public ingest started from the admin console (issue 31): each names the sheet
 * field as the sheet spells it (`{field}`) and says what to change.
 */
registerMessages({
  'en-US': {
    'pi.sheet.syntax': 'The metadata sheet is not valid YAML or JSON: {detail}',
    'pi.sheet.object':
      'The metadata sheet must be a set of fields, one per line like "title: …", not a list or a single value.',
    'pi.field.required': '"{field}" is required: add it to the sheet.',
    'pi.field.unknown': '"{field}" is not a field of the metadata sheet: remove it or check its spelling.',
    'pi.field.type.string': '"{field}" must be text.',
    'pi.field.type.array': '"{field}" must be a list (for example "[Blood]").',
    'pi.field.type.object': '"{field}" must be a set of fields.',
    'pi.field.type.number': '"{field}" must be a number.',
    'pi.field.id':
      '"{field}" may hold only letters, digits, "_", "." and "-", must start with a letter or digit and have at most 64 characters.',
    'pi.field.format': '"{field}" is not in the expected form (a web address, or digits for a PubMed id).',
    'pi.field.empty': '"{field}" must not be empty.',
    'pi.field.tooBig': '"{field}" is too long or too large (at most {max}).',
    'pi.field.tooSmall': '"{field}" is too small (at least {min}).',
    'pi.field.invalid': '"{field}" is not valid.',
    'pi.species.supported': '"{field}" must be Homo sapiens or Mus musculus.',
    'pi.cells.required': '"{field}" names cell table columns, but the sheet names no "cells" table.',
    'pi.cells.column': 'The cells table has no column "{column}" named by "{field}".',
    'pi.cells.file':
      'The cells table "{name}" named by "{field}" is not among the uploaded files: add it to the upload.',
    'pi.cells.cover':
      'Every cell needs a row in the cells table named by "{field}": {missing} of {total} cells have none.',
    'pi.counts.integer': 'The counts must be raw integer counts: the file holds non-integer values.',
    'pi.obs.required':
      'The file\'s cell table (obs) has no "{column}" column, which the CELLxGENE schema requires.',
    'pi.obs.donor': 'The file\'s cell table (obs) has neither a "donor_id" nor a "sample" column: add one.',
    'pi.organism.single':
      'The file holds cells of several organisms ({organisms}): ingest one organism per dataset.',
    'pi.var.ensembl':
      '{count} gene ids are not Ensembl gene ids (e.g. {examples}): the genes must be named by Ensembl id.',
    'pi.counts.empty': 'The matrix has no cells.',
    'pi.organism.required':
      'The file names no organism (obs "organism_ontology_term_id"): add "{field}" to the sheet.',
    'pi.file.rule': 'The file breaks the rule {rule}: {detail}',
    'pi.file.read': 'The uploaded files could not be read as a dataset: {detail}',
    'pi.busy': 'An ingest of public dataset "{id}" is already queued or running: wait for it to finish.',
    'pi.upload.incomplete': 'The upload has not received every file yet: wait for it to finish.',
    'pi.noWorker': 'This server runs no job worker: start a worker, then start the ingest again.',
  },
  'zh-CN': {
    'pi.sheet.syntax': '元数据表不是有效的 YAML 或 JSON：{detail}',
    'pi.sheet.object': '元数据表必须是一组字段（每行一个，例如 "title: …"），而不是列表或单个值。',
    'pi.field.required': '缺少 "{field}"：请在元数据表中添加。',
    'pi.field.unknown': '"{field}" 不是元数据表的字段：请删除或检查拼写。',
    'pi.field.type.string': '"{field}" 必须是文本。',
    'pi.field.type.array': '"{field}" 必须是列表（例如 "[Blood]"）。',
    'pi.field.type.object': '"{field}" 必须是一组字段。',
    'pi.field.type.number': '"{field}" 必须是数字。',
    'pi.field.id': '"{field}" 只能包含字母、数字、"_"、"." 和 "-"，须以字母或数字开头，最多 64 个字符。',
    'pi.field.format': '"{field}" 的格式不正确（应为网址，或 PubMed 编号的数字）。',
    'pi.field.empty': '"{field}" 不能为空。',
    'pi.field.tooBig': '"{field}" 过长或过大（最多 {max}）。',
    'pi.field.tooSmall': '"{field}" 过小（至少 {min}）。',
    'pi.field.invalid': '"{field}" 无效。',
    'pi.species.supported': '"{field}" 必须是 Homo sapiens 或 Mus musculus。',
    'pi.cells.required': '"{field}" 指定了细胞表的列，但元数据表没有指定 "cells" 细胞表。',
    'pi.cells.column': '细胞表中没有 "{field}" 指定的列 "{column}"。',
    'pi.cells.file': '"{field}" 指定的细胞表 "{name}" 不在已上传的文件中：请将其加入上传。',
    'pi.cells.cover':
      '每个细胞都需要在 "{field}" 指定的细胞表中有一行：{total} 个细胞中有 {missing} 个没有。',
    'pi.counts.integer': '计数必须是原始整数计数：文件中含有非整数值。',
    'pi.obs.required': '文件的细胞表（obs）中没有 CELLxGENE 规范要求的 "{column}" 列。',
    'pi.obs.donor': '文件的细胞表（obs）中既没有 "donor_id" 列也没有 "sample" 列：请添加其中之一。',
    'pi.organism.single': '文件包含多个物种的细胞（{organisms}）：每个数据集只能导入一个物种。',
    'pi.var.ensembl':
      '有 {count} 个基因编号不是 Ensembl 基因编号（例如 {examples}）：基因须以 Ensembl 编号命名。',
    'pi.counts.empty': '矩阵中没有细胞。',
    'pi.organism.required':
      '文件未注明物种（obs "organism_ontology_term_id"）：请在元数据表中添加 "{field}"。',
    'pi.file.rule': '文件违反规则 {rule}：{detail}',
    'pi.file.read': '无法将上传的文件读取为数据集：{detail}',
    'pi.busy': '公共数据集 "{id}" 的导入已在排队或进行中：请等待其完成。',
    'pi.upload.incomplete': '上传尚未收到全部文件：请等待上传完成。',
    'pi.noWorker': '此服务器未运行任务处理进程：请启动处理进程后重新开始导入。',
  },
});
