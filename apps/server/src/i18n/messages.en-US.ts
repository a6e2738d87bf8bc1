/**
 * Server-side messages, en-US (the key source). Keys are ErrorCode names
 * (packages/contracts/src/errors.ts) or dotted message keys; `{name}` placeholders are filled
 * from the error's params. zh-CN must have exactly the same keys (tested).
 */
export const enUS = {
  ok: 'success',
  VALIDATION_FAILED: 'Invalid request: {detail}',
  UNAUTHENTICATED: 'Please log in first.',
  LOGIN_EXPIRED: 'Login status has expired, please login again',
  FORBIDDEN: 'Resource Unavailable',
  PRIVILEGE_REQUIRED: 'Resource Unavailable: request a subscription to get more access.',
  NOT_FOUND: 'Resource does not exist',
  FILE_NOT_FOUND: 'file does not exist',
  CONFLICT: 'The request conflicts with the current state: {detail}',
  NAME_EXISTS: 'name exists, please type another',
  RATE_LIMITED: 'Too many attempts. Please wait {seconds} seconds and try again.',
  STORAGE_FULL:
    'Storage full: uploads and analyses cannot proceed until you delete files or upgrade your plan.',
  INTERNAL: 'The website is currently undergoing maintenance, please visit later.',
  MAINTENANCE: 'The website is currently undergoing maintenance, please visit later.',
} as const;

export type MessageKey = keyof typeof enUS;
