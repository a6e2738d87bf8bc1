/**
 * Application error codes shared by server and web. The server maps each code to an HTTP
 * status and a translated message (apps/server/src/i18n); the web maps HTTP statuses to the
 * docs/product/errors.md#status-handling behaviours and shows `msg` for the rest.
 *
 * Add new codes here (never reuse or renumber one): the key is what code refers to, the value
 * is the HTTP status it is sent with.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  LOGIN_EXPIRED: 401,
  FORBIDDEN: 403,
  PRIVILEGE_REQUIRED: 403,
  NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  CONFLICT: 409,
  NAME_EXISTS: 409,
  RATE_LIMITED: 429,
  STORAGE_FULL: 507,
  INTERNAL: 500,
  MAINTENANCE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];
