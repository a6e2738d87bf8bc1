import { registerMessages } from './translate';

/** Messages of the analysis drafts (wizard) that the jobs catalog does not have. */
registerMessages({
  'en-US': {
    'wizard.samples.notFound':
      'Sample {detail} was not found among your uploads. Select your own samples (uploads of other accounts cannot be analysed).',
  },
  'zh-CN': {
    'wizard.samples.notFound':
      '在您的上传中未找到样本 {detail}。请选择您自己的样本（不能分析其他账号的上传）。',
  },
});
