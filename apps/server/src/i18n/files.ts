import { formatErrorCodes, formatErrorMessages } from '@cellcloud/formats';
import { registerMessages } from './translate';

/**
 * Messages of the files area (data import). Reader errors come from @cellcloud/formats and are
 * registered as `format.<code>` in both languages; a failed parse appends `files.reinitiate`.
 */
const en: Record<string, string> = {
  'files.sampleName.required': 'Please enter the sample ID.',
  'files.sampleName.tooLong': 'The sample name is too long (at most 100 characters).',
  'files.sampleName.invalid':
    'Invalid sample name: start with a letter or underscore, then use only letters, digits, underscores, dots or spaces (no special symbols or Chinese characters, no leading digit or symbol).',
  'files.files.required': 'Choose at least one file to upload.',
  'files.fileName.invalid':
    'File name "{name}" is not allowed: it must not contain "..", a leading "/", backslashes or control characters. Rename the file and upload it again.',
  'files.fileName.notAnnounced':
    'File "{name}" does not belong to this upload. Start the upload again from the Import Data page.',
  'files.fileSize.mismatch':
    'File "{name}" has {actual} bytes but {expected} were announced. Start the upload again from the Import Data page.',
  'files.upload.closed':
    'This upload is no longer accepting files (state: {state}). Start a new upload from the Import Data page.',
  'files.upload.tooLarge': 'File "{name}" is larger than the largest accepted file ({max}).',
  'files.retry.notAllowed': 'Only an upload whose parsing failed can be parsed again.',
  'files.properties.notReady': 'File properties are available once parsing has completed (state: {state}).',
  'files.reinitiate': 'Please re-initiate from upload.',
  'files.failed.crash':
    'Parsing stopped unexpectedly ({detail}). Your file is kept: click Retry to parse it again.',
  'files.failed.noData':
    'No data file was uploaded: add the matrix or dataset file itself, not only a metadata table.',
  'files.unusable.cells':
    'A sample must have more than 30 and fewer than 100,000 cells; this one has {cells}, so it cannot be analysed.',
};

const zh: Record<string, string> = {
  'files.sampleName.required': '请输入样本 ID。',
  'files.sampleName.tooLong': '样本名称过长（最多 100 个字符）。',
  'files.sampleName.invalid':
    '样本名称无效：须以字母或下划线开头，之后只能包含字母、数字、下划线、点或空格（不能含特殊符号或中文，不能以数字或符号开头）。',
  'files.files.required': '请至少选择一个要上传的文件。',
  'files.fileName.invalid':
    '文件名“{name}”不允许：不能包含“..”、开头的“/”、反斜杠或控制字符。请重命名文件后重新上传。',
  'files.fileName.notAnnounced': '文件“{name}”不属于此次上传。请从“导入数据”页面重新开始上传。',
  'files.fileSize.mismatch':
    '文件“{name}”大小为 {actual} 字节，但声明为 {expected} 字节。请从“导入数据”页面重新开始上传。',
  'files.upload.closed': '此上传已不再接收文件（状态：{state}）。请从“导入数据”页面重新发起上传。',
  'files.upload.tooLarge': '文件“{name}”超过允许的最大文件大小（{max}）。',
  'files.retry.notAllowed': '只有解析失败的上传才能重新解析。',
  'files.properties.notReady': '解析完成后才有文件属性（当前状态：{state}）。',
  'files.reinitiate': '请从上传重新发起。',
  'files.failed.crash': '解析意外中断（{detail}）。文件已保留：点击“重试”重新解析。',
  'files.failed.noData': '没有上传数据文件：请添加矩阵或数据集文件本身，而不只是元数据表。',
  'files.unusable.cells': '样本的细胞数必须大于 30 且小于 100,000；此样本有 {cells} 个细胞，无法用于分析。',
};

for (const code of formatErrorCodes) {
  en[`format.${code}`] = formatErrorMessages[code].en;
  zh[`format.${code}`] = formatErrorMessages[code].zh;
}

registerMessages({ 'en-US': en, 'zh-CN': zh });
