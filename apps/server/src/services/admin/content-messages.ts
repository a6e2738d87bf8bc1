import { registerMessages } from '../../i18n/translate';

/** Messages of content authoring, tutorial videos and system notifications (issue 21). */
registerMessages({
  'en-US': {
    'content.titleRequired': 'The title is required in both languages.',
    'content.bodyRequired': 'The text is required in both languages.',
    'content.dateRequired': 'An update-log entry needs a date (YYYY-MM-DD).',
    'content.notOrderable': 'Update-log entries are ordered by their date.',
    'content.videoType': 'Only MP4 and WebM videos can be uploaded (the file is a {detected}).',
    'content.videoTooLarge': 'The video is larger than the limit of {limitMb} MB.',
    'content.videoEmpty': 'The uploaded video is empty.',
  },
  'zh-CN': {
    'content.titleRequired': '标题须填写中英文两种语言。',
    'content.bodyRequired': '正文须填写中英文两种语言。',
    'content.dateRequired': '更新日志条目需要日期（YYYY-MM-DD）。',
    'content.notOrderable': '更新日志条目按日期排序。',
    'content.videoType': '只能上传 MP4 或 WebM 视频（该文件为 {detected}）。',
    'content.videoTooLarge': '视频超过 {limitMb} MB 的上限。',
    'content.videoEmpty': '上传的视频为空。',
  },
});
