import { registerMessages } from '../../i18n/translate';

/** Messages of the explore area (SPEC §8 wording where the SPEC gives one). */
registerMessages({
  'en-US': {
    'explore.notReady': 'This analysis has not finished yet (status: {status}). Open it again when it is completed.',
    'explore.noArtifacts': 'This analysis has no explorer results. Re-run the analysis to produce them.',
    'explore.badRange': 'The requested byte range {range} is outside the file ({size} bytes).',
    'explore.badPath': 'Invalid artifact path "{path}".',
  },
  'zh-CN': {
    'explore.notReady': '该分析尚未完成（状态：{status}）。请在完成后再打开。',
    'explore.noArtifacts': '该分析没有可浏览的结果。请重新运行分析以生成结果。',
    'explore.badRange': '请求的字节范围 {range} 超出文件大小（{size} 字节）。',
    'explore.badPath': '无效的结果文件路径“{path}”。',
  },
});
