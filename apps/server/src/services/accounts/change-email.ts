import { emailCodesRepo } from '../../db/repos/email-codes';
import { isUniqueViolation, usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { checkCode } from './codes';
import type { AccountDeps } from './deps';

/** POST /account/email/update (signed in): the new address must be free and confirmed by its code. */
export async function changeEmail(
  d: AccountDeps,
  userId: string,
  input: { email: string; code: string },
): Promise<void> {
  const user = await usersRepo.byId(d.db, userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  if (user.email.toLowerCase() === input.email.toLowerCase())
    throw new AppError('VALIDATION_FAILED', {}, 'account.email.same');
  if (await usersRepo.byEmail(d.db, input.email))
    throw new AppError('NAME_EXISTS', {}, 'account.email.taken');
  const codeId = await checkCode(d, input.email, 'changeEmail', input.code);
  try {
    await d.db.tx(async (q) => {
      if (!(await emailCodesRepo.consume(q, codeId, d.now())))
        throw new AppError('VALIDATION_FAILED', {}, 'account.code.used');
      await usersRepo.setEmail(q, userId, input.email);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('NAME_EXISTS', {}, 'account.email.taken');
    throw e;
  }
}
