import { registerMessages } from '../../i18n/translate';

/** Messages of the admin console (issue 21). */
registerMessages({
  'en-US': {
    'admin.selfDisable': 'You cannot disable your own account.',
  },
  'zh-CN': {
    'admin.selfDisable': '不能停用您自己的账户。',
  },
});
