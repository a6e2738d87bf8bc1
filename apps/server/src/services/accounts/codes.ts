import { createHash, randomBytes, randomInt } from 'node:crypto';
import { CODE_RESEND_SECONDS, LIMITS, outboxLine, type CodePurpose } from '@cellcloud/contracts';
import { emailCodesRepo } from '../../db/repos/email-codes';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { translate } from '../../i18n/translate';
import { ACCOUNT_LIMITS } from '../rate-limit';
import type { AccountDeps, RequestMeta } from './deps';

/** Wrong guesses allowed per code before a new one must be requested. */
export const MAX_CODE_ATTEMPTS = 5;

const hashCode = (email: string, purpose: CodePurpose, code: string) =>
  createHash('sha256').update(`${purpose}:${email.trim().toLowerCase()}:${code}`).digest('hex');

/**
 * POST /account/sendMessage: creates a 6-digit code (valid 2 hours, stored hashed) and mails it.
 * `register` / `changeEmail` need an unused address; `reset` answers alike for any address. Limited per IP,
 * one code per address per minute and 10 per hour.
 */
export async function sendCode(
  d: AccountDeps,
  input: { email: string; purpose: CodePurpose },
  meta: RequestMeta,
): Promise<{ resendAfterSeconds: number }> {
  const email = input.email.trim();
  await d.limiter.consume('code-ip', meta.ip, ACCOUNT_LIMITS.codePerIp);
  const existing = await usersRepo.byEmail(d.db, email);
  // A reset for an unknown address goes through every step (resend wait, limits, a stored code)
  // except the mail, so its answer is the same as for a registered address (no enumeration).
  const silent = input.purpose === 'reset' && !existing;
  if (input.purpose !== 'reset' && existing) throw new AppError('NAME_EXISTS', {}, 'account.email.taken');

  const now = d.now();
  const last = await emailCodesRepo.latest(d.db, email, input.purpose);
  if (last) {
    const since = (now.getTime() - new Date(last.created_at).getTime()) / 1000;
    if (since < CODE_RESEND_SECONDS)
      throw new AppError('RATE_LIMITED', { seconds: Math.ceil(CODE_RESEND_SECONDS - since) });
  }
  await d.limiter.consume('code-email', email, ACCOUNT_LIMITS.codePerEmailHourly);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // The silent code's hash is of random bytes: no 6-digit guess can match it.
  const codeHash = silent
    ? createHash('sha256').update(randomBytes(32)).digest('hex')
    : hashCode(email, input.purpose, code);
  await emailCodesRepo.insert(d.db, {
    email,
    purpose: input.purpose,
    codeHash,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LIMITS.emailCodeValidMs),
  });
  if (silent) return { resendAfterSeconds: CODE_RESEND_SECONDS };
  try {
    await d.mailer.send({
      to: email,
      subject: translate(meta.locale, `mail.code.subject.${input.purpose}`),
      text: translate(meta.locale, 'mail.code.body', { code }),
      logLine: outboxLine(email, input.purpose, code),
    });
  } catch {
    throw new AppError('CONFLICT', {}, 'account.code.sendFailed');
  }
  return { resendAfterSeconds: CODE_RESEND_SECONDS };
}

/**
 * Checks the newest code of an address and purpose. A wrong guess is counted (a code dies
 * after MAX_CODE_ATTEMPTS). Returns the code's id: the caller consumes it with
 * `emailCodesRepo.consume` inside the transaction that performs the action.
 */
export async function checkCode(
  d: AccountDeps,
  email: string,
  purpose: CodePurpose,
  code: string,
): Promise<string> {
  const row = await emailCodesRepo.latest(d.db, email.trim(), purpose);
  if (!row) throw new AppError('VALIDATION_FAILED', {}, 'account.code.missing');
  if (row.consumed_at) throw new AppError('VALIDATION_FAILED', {}, 'account.code.used');
  if (row.failed_attempts >= MAX_CODE_ATTEMPTS)
    throw new AppError('VALIDATION_FAILED', {}, 'account.code.tooManyAttempts');
  if (new Date(row.expires_at).getTime() <= d.now().getTime())
    throw new AppError('VALIDATION_FAILED', {}, 'account.code.expired');
  if (row.code_hash !== hashCode(email, purpose, code.trim())) {
    await emailCodesRepo.countFailure(d.db, row.id);
    throw new AppError('VALIDATION_FAILED', {}, 'account.code.wrong');
  }
  return row.id;
}
