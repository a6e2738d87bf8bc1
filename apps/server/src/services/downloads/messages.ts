import { registerMessages } from '../../i18n/translate';

/** Messages of requested downloads (issue 21). */
registerMessages({
  'en-US': {
    'downloads.notReady': 'This analysis has not finished yet; request the download once it shows Completed.',
    'downloads.noSource': 'This result has no {kind} file to export.',
    'downloads.notPending': 'This request was already decided.',
    'downloads.link.invalid':
      'This download link is not valid. Open Requested Downloads and use the link shown there.',
    'downloads.link.expired': 'This download link has expired. Request the download again.',
    'downloads.notAvailable': 'This download is not available (declined, expired or still being prepared).',
  },
  'zh-CN': {
    'downloads.notReady': '该分析尚未完成；请在显示“已完成”后再申请下载。',
    'downloads.noSource': '该结果没有可导出的 {kind} 文件。',
    'downloads.notPending': '该申请已被处理。',
    'downloads.link.invalid': '该下载链接无效。请打开“已申请的下载”并使用其中显示的链接。',
    'downloads.link.expired': '该下载链接已过期。请重新申请下载。',
    'downloads.notAvailable': '该下载不可用（已拒绝、已过期或仍在准备中）。',
  },
});
