import type { registerRequest } from '@cellcloud/contracts';
import type { z } from 'zod';
import { emailCodesRepo } from '../../db/repos/email-codes';
import { plansRepo } from '../../db/repos/plans';
import { isUniqueViolation, usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { checkCode } from './codes';
import type { AccountDeps } from './deps';
import { hashPassword } from './passwords';

export type RegisterInput = z.output<typeof registerRequest>;

/** Throws NAME_EXISTS when the user name, e-mail or phone is already registered. */
export async function assertAvailable(
  d: AccountDeps,
  u: { username?: string; email?: string; phone?: string | null },
) {
  if (u.username && (await usersRepo.byUsername(d.db, u.username)))
    throw new AppError('NAME_EXISTS', {}, 'account.username.taken');
  if (u.email && (await usersRepo.byEmail(d.db, u.email)))
    throw new AppError('NAME_EXISTS', {}, 'account.email.taken');
  if (u.phone && (await usersRepo.phoneTaken(d.db, u.phone)))
    throw new AppError('NAME_EXISTS', {}, 'account.phone.taken');
}

/**
 * POST /account/reg: validates availability, then the e-mail code (purpose register), then
 * creates the user on the default plan, consuming the code in the same transaction.
 */
export async function register(d: AccountDeps, input: RegisterInput): Promise<{ username: string }> {
  const phone = input.phone ? input.phone : null;
  await assertAvailable(d, { username: input.username, email: input.email, phone });
  const codeId = await checkCode(d, input.email, 'register', input.emailCode);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await d.db.tx(async (q) => {
      if (!(await emailCodesRepo.consume(q, codeId, d.now())))
        throw new AppError('VALIDATION_FAILED', {}, 'account.code.used');
      const plan = await plansRepo.defaultPlan(q);
      return usersRepo.insert(q, {
        username: input.username,
        email: input.email,
        phone,
        firstName: input.firstName,
        lastName: input.lastName,
        institution: input.institution,
        researchInterest: input.researchInterest || null,
        marketingConsent: input.marketingConsent,
        passwordHash,
        isAdmin: false,
        planId: plan?.id ?? null,
      });
    });
    return { username: user.username };
  } catch (e) {
    if (isUniqueViolation(e, 'users_username_lower'))
      throw new AppError('NAME_EXISTS', {}, 'account.username.taken');
    if (isUniqueViolation(e, 'users_email_lower'))
      throw new AppError('NAME_EXISTS', {}, 'account.email.taken');
    throw e;
  }
}
