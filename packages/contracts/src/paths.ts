/**
 * API paths of the account and content calls (docs/product/api.md#content-calls), free of zod so the web app's first
 * load (the login page) does not need the schema library. account.ts / content.ts re-export them.
 */
export const CELELENS_BASE = '/api/database-api/celeLens';
export const ACCOUNT_BASE = `${CELELENS_BASE}/account`;

export const accountPaths = {
  login: `${ACCOUNT_BASE}/sign-up`,
  register: `${ACCOUNT_BASE}/reg`,
  checkUsername: `${ACCOUNT_BASE}/reg/check_username`,
  checkEmail: `${ACCOUNT_BASE}/reg/check_email`,
  checkPhone: `${ACCOUNT_BASE}/reg/check_phone`,
  sendMessage: `${ACCOUNT_BASE}/sendMessage`,
  signOut: `${ACCOUNT_BASE}/sign-out`,
  info: `${ACCOUNT_BASE}/info`,
  criteriaIpAddress: `${ACCOUNT_BASE}/criteriaIpAddress`,
  forgotPassword: `${ACCOUNT_BASE}/beforeLogin/password/update`,
  changePassword: `${ACCOUNT_BASE}/password/update`,
  changeEmail: `${ACCOUNT_BASE}/email/update`,
  loginLog: `${ACCOUNT_BASE}/loginLog`,
  contactUs: `${ACCOUNT_BASE}/contactUS`,
} as const;

export const contentPaths = {
  faq: `${CELELENS_BASE}/content/listFaq`,
  list: `${CELELENS_BASE}/content/list`,
  updateLog: `${CELELENS_BASE}/dataset/updateLog`,
  notificationsUnread: `${CELELENS_BASE}/user/notifications/unread`,
} as const;
