import { emailCodesRepo } from '../../db/repos/email-codes';
import { sessionsRepo } from '../../db/repos/sessions';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { ACCOUNT_LIMITS } from '../rate-limit';
import { checkCode } from './codes';
import type { AccountDeps } from './deps';
import { LOGIN_FAIL_BUCKET } from './login';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken } from './tokens';

/**
 * POST /account/beforeLogin/password/update (forgot password): code of purpose `reset` sent to
 * the address, then the new password. Every open session of the user is revoked and the
 * account's failed-login lock is lifted.
 */
export async function resetPassword(
  d: AccountDeps,
  input: { email: string; code: string; password: string },
): Promise<void> {
  const user = await usersRepo.byEmail(d.db, input.email);
  // An unknown address fails like a wrong code (sendCode stores an unusable code for it), so the
  // answer does not tell whether an account uses the address.
  const codeId = await checkCode(d, user?.email ?? input.email, 'reset', input.code);
  if (!user) throw new AppError('VALIDATION_FAILED', {}, 'account.code.wrong');
  const hash = await hashPassword(input.password);
  await d.db.tx(async (q) => {
    if (!(await emailCodesRepo.consume(q, codeId, d.now())))
      throw new AppError('VALIDATION_FAILED', {}, 'account.code.used');
    await usersRepo.setPassword(q, user.id, hash);
    await sessionsRepo.revokeAllOf(q, user.id, d.now());
  });
  await d.limiter.reset(LOGIN_FAIL_BUCKET, user.id);
}

/**
 * POST /account/password/update (signed in): checks the current password (wrong guesses count
 * towards the account lock), sets the new one and revokes the user's other sessions.
 */
export async function changePassword(
  d: AccountDeps,
  userId: string,
  token: string,
  input: { oldPassword: string; password: string },
): Promise<void> {
  await d.limiter.check(LOGIN_FAIL_BUCKET, userId, ACCOUNT_LIMITS.loginFailuresPerAccount);
  const user = await usersRepo.byId(d.db, userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
    await d.limiter.record(LOGIN_FAIL_BUCKET, userId, ACCOUNT_LIMITS.loginFailuresPerAccount);
    throw new AppError('VALIDATION_FAILED', {}, 'account.password.oldWrong');
  }
  const hash = await hashPassword(input.password);
  await d.db.tx(async (q) => {
    await usersRepo.setPassword(q, userId, hash);
    await sessionsRepo.revokeAllOf(q, userId, d.now(), hashToken(token));
  });
}
