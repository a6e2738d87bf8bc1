import { COMMON_TASK_MESSAGES } from '@cellcloud/contracts/tasks/common-messages';
import { TASKS } from '@cellcloud/tasks/contract';
import { registerMessages } from '../../i18n/translate';

/**
 * Messages of the analysis tasks: the API's own (`tasks.*`, with each task's notification title
 * from its definition's display names) and every task's failure messages
 * (`task.<key>`: each definition's `messages` + COMMON_TASK_MESSAGES), so a stored failure
 * `task.<key>` + params renders in the reader's language.
 */
const prefixed = (m: Record<string, string>) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [`task.${k}`, v]));
/** `tasks.notify.<task>`: a task's notification title, "<analysis> · <the task's display name>". */
const notify = (locale: 'en-US' | 'zh-CN') =>
  Object.fromEntries(
    TASKS.map((t) => [`tasks.notify.${t.name}`, `{analysis} · ${t.displayName?.[locale] ?? t.name}`]),
  );

registerMessages({
  'en-US': {
    'tasks.unknown': 'There is no analysis task "{task}".',
    'tasks.notFound': 'This analysis task does not exist any more. Refresh the page.',
    'tasks.running': 'The analysis is still processing, please refresh later.',
    'tasks.failed': 'The analysis failed: {message}',
    'tasks.noSuchOutput': 'The analysis has no output "{name}".',
    'tasks.upload.unknown': 'This analysis takes no file "{name}".',
    'tasks.upload.required': 'Please upload the file "{name}".',
    'tasks.upload.tooLarge': 'The file "{file}" is larger than {maxKb} KB.',
    'tasks.upload.base64': 'The file "{file}" was not sent correctly (invalid base64).',
    'tasks.source':
      'The step-1 result this analysis builds on ({task}) is not a finished run of this dataset. Run step 1 again or choose another result.',
    ...notify('en-US'),
    ...prefixed(COMMON_TASK_MESSAGES['en-US']),
    ...Object.assign({}, ...TASKS.map((t) => prefixed(t.messages['en-US']))),
  },
  'zh-CN': {
    'tasks.unknown': '没有名为“{task}”的分析任务。',
    'tasks.notFound': '该分析任务已不存在，请刷新页面。',
    'tasks.running': '分析正在处理中，请稍后刷新。',
    'tasks.failed': '分析失败：{message}',
    'tasks.noSuchOutput': '该分析没有输出“{name}”。',
    'tasks.upload.unknown': '该分析不接受文件“{name}”。',
    'tasks.upload.required': '请上传文件“{name}”。',
    'tasks.upload.tooLarge': '文件“{file}”超过 {maxKb} KB。',
    'tasks.upload.base64': '文件“{file}”未正确发送（base64 无效）。',
    'tasks.source':
      '该分析所依据的第一步结果（{task}）不是本数据集已完成的运行。请重新运行第一步或选择其他结果。',
    ...notify('zh-CN'),
    ...prefixed(COMMON_TASK_MESSAGES['zh-CN']),
    ...Object.assign({}, ...TASKS.map((t) => prefixed(t.messages['zh-CN']))),
  },
});
