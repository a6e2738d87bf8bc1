import { LIMITS, type LoginLogRow } from '@cellcloud/contracts';
import { loginLogRepo } from '../../db/repos/login-log';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { ACCOUNT_LIMITS } from '../rate-limit';
import type { AccountDeps, RequestMeta } from './deps';
import { verifyPassword } from './passwords';
import { issueToken, revokeToken } from './tokens';

/** Rate-limit bucket of failed password checks, keyed by user id (or the unknown login). */
export const LOGIN_FAIL_BUCKET = 'login-fail';
/** Failed logins per client IP (successful logins do not count: many users may share a NAT). */
const LOGIN_IP_BUCKET = 'login-ip-fail';

/**
 * POST /account/sign-up (log in with user name or e-mail). Repeated failures lock the
 * account and, separately, the client IP for the rest of the window. A disabled account is refused after the password check.
 */
export async function login(
  d: AccountDeps,
  input: { username: string; password: string },
  meta: RequestMeta,
): Promise<{ token: string; user_name: string }> {
  await d.limiter.check(LOGIN_IP_BUCKET, meta.ip, ACCOUNT_LIMITS.loginFailuresPerIp);
  const user = await usersRepo.byLogin(d.db, input.username.trim());
  const key = user?.id ?? input.username.trim();
  await d.limiter.check(LOGIN_FAIL_BUCKET, key, ACCOUNT_LIMITS.loginFailuresPerAccount);
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) {
    await d.limiter.record(LOGIN_FAIL_BUCKET, key, ACCOUNT_LIMITS.loginFailuresPerAccount);
    await d.limiter.record(LOGIN_IP_BUCKET, meta.ip, ACCOUNT_LIMITS.loginFailuresPerIp);
    if (user)
      await loginLogRepo.insert(d.db, {
        userId: user.id,
        at: d.now(),
        ip: meta.ip,
        userAgent: meta.userAgent,
        success: false,
      });
    throw new AppError('VALIDATION_FAILED', {}, 'account.login.invalid');
  }
  if (user.disabled_at) throw new AppError('FORBIDDEN', {}, 'account.disabled');
  await d.limiter.reset(LOGIN_FAIL_BUCKET, key);
  const token = await d.db.tx(async (q) => {
    await loginLogRepo.insert(q, {
      userId: user.id,
      at: d.now(),
      ip: meta.ip,
      userAgent: meta.userAgent,
      success: true,
    });
    return issueToken(q, {
      userId: user.id,
      now: d.now(),
      ttlMs: d.config.tokenTtlMs,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
  return { token, user_name: user.username };
}

/** GET /account/sign-out: revokes the caller's token (unknown tokens are ignored). */
export async function signOut(d: AccountDeps, token: string | undefined): Promise<void> {
  if (token) await revokeToken(d.db, token, d.now());
}

/** GET /account/loginLog: the last LIMITS.loginLogSize login attempts, newest first. */
export async function loginLog(d: AccountDeps, userId: string): Promise<LoginLogRow[]> {
  const rows = await loginLogRepo.latest(d.db, userId, LIMITS.loginLogSize);
  return rows.map((r) => ({
    loginAt: new Date(r.login_at).toISOString(),
    ip: r.ip,
    userAgent: r.user_agent,
    success: r.success,
  }));
}
