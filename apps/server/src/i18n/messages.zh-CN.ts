import type { MessageKey } from './messages.en-US';

/** Server-side messages, zh-CN. Same keys as en-US. */
export const zhCN: Record<MessageKey, string> = {
  ok: '成功',
  VALIDATION_FAILED: '请求无效：{detail}',
  UNAUTHENTICATED: '请先登录。',
  LOGIN_EXPIRED: '登录状态已过期，请重新登录',
  FORBIDDEN: '资源不可用',
  PRIVILEGE_REQUIRED: '资源不可用：申请订阅以获得更多权限。',
  NOT_FOUND: '资源不存在',
  FILE_NOT_FOUND: '文件不存在',
  CONFLICT: '请求与当前状态冲突：{detail}',
  NAME_EXISTS: '名称已存在，请重新输入',
  RATE_LIMITED: '尝试次数过多，请 {seconds} 秒后重试。',
  STORAGE_FULL: '存储空间已满：请删除文件或升级套餐后再上传或分析。',
  INTERNAL: '网站正在维护中，请稍后访问。',
  MAINTENANCE: '网站正在维护中，请稍后访问。',
};
