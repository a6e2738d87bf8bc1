import { registerMessages } from '../../i18n/translate';

/** Messages of sharing and attributed annotation (issue 35, docs/product/sharing.md). */
registerMessages({
  'en-US': {
    'sharing.viewerReadOnly':
      'You can view this analysis but not change it: its owner shared it with you as a viewer. Ask the owner to make you an editor.',
    'sharing.ownerOnly': 'Only the owner of this analysis can change who it is shared with.',
    'sharing.user.required': 'Enter the user name or e-mail address of the person to share with.',
    'sharing.user.notFound':
      'No user "{user}" exists on this installation. Check the user name or e-mail address.',
    'sharing.user.self': 'This analysis is already yours; share it with someone else.',
    'sharing.exists': 'This analysis is already shared with {user}; change their role instead.',
    'sharing.notFound': 'This share does not exist any more. Refresh the page.',
    'annotation.conflict':
      'This level was changed by {author} meanwhile (now version {version}). Look at their version before saving again.',
    'annotation.history.notFound': 'Version {version} of this level does not exist.',
    'annotation.label.unknown': 'The label "{label}" is not part of this level.',
  },
  'zh-CN': {
    'sharing.viewerReadOnly':
      '您只能查看此分析，不能修改：所有者以“查看者”身份与您共享。请联系所有者将您设为“编辑者”。',
    'sharing.ownerOnly': '只有此分析的所有者可以修改共享设置。',
    'sharing.user.required': '请输入要共享的用户的用户名或邮箱。',
    'sharing.user.notFound': '本系统中不存在用户“{user}”，请检查用户名或邮箱。',
    'sharing.user.self': '此分析已属于您，请与其他用户共享。',
    'sharing.exists': '此分析已与 {user} 共享，请改为修改其角色。',
    'sharing.notFound': '该共享已不存在，请刷新页面。',
    'annotation.conflict':
      '此注释层级已被 {author} 修改（当前为第 {version} 版）。请先查看对方的版本再保存。',
    'annotation.history.notFound': '此注释层级不存在第 {version} 版。',
    'annotation.label.unknown': '标签“{label}”不属于此注释层级。',
  },
});
