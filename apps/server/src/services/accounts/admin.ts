import { emailField, newPasswordField, usernameField } from '@cellcloud/contracts';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { plansRepo } from '../../db/repos/plans';
import { sessionsRepo } from '../../db/repos/sessions';
import { usersRepo, type UserRow } from '../../db/repos/users';
import '../../i18n/accounts';
import { translate } from '../../i18n/translate';
import { hashPassword } from './passwords';

/** Administration use cases (the admin CLI). Errors are plain `Error`s with a message for a person. */

const adminInput = z.object({
  username: usernameField,
  email: emailField,
  password: newPasswordField,
  firstName: z.string().trim().min(1).default('Admin'),
  lastName: z.string().trim().min(1).default('CellCloud'),
  institution: z.string().trim().min(1).default('CellCloud'),
});

export async function createAdmin(db: Db, raw: Record<string, unknown>): Promise<UserRow> {
  const parsed = adminInput.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      parsed.error.issues.map((i) => `--${i.path.join('.')}: ${translate('en-US', i.message)}`).join('\n'),
    );
  }
  const a = parsed.data;
  if (await usersRepo.byUsername(db, a.username))
    throw new Error(`user name "${a.username}" is already registered`);
  if (await usersRepo.byEmail(db, a.email)) throw new Error(`e-mail "${a.email}" is already registered`);
  const plan = (await plansRepo.plan(db, 'synecosys')) ?? (await plansRepo.defaultPlan(db));
  return usersRepo.insert(db, {
    username: a.username,
    email: a.email,
    phone: null,
    firstName: a.firstName,
    lastName: a.lastName,
    institution: a.institution,
    researchInterest: null,
    marketingConsent: false,
    passwordHash: await hashPassword(a.password),
    isAdmin: true,
    planId: plan?.id ?? null,
  });
}

async function userByLogin(db: Db, login: string): Promise<UserRow> {
  const u = await usersRepo.byLogin(db, login);
  if (!u) throw new Error(`no user "${login}" (give a user name or an e-mail; see list-users)`);
  return u;
}

export async function assignPlan(db: Db, login: string, planId: string): Promise<UserRow> {
  const u = await userByLogin(db, login);
  if (!(await plansRepo.plan(db, planId))) {
    const ids = (await plansRepo.list(db)).map((p) => p.id).join(', ');
    throw new Error(`no plan "${planId}"; plans: ${ids}`);
  }
  await usersRepo.setPlan(db, u.id, planId);
  return u;
}

/** Disabling revokes every session: the user's tokens stop working at once. */
export async function setUserDisabled(
  db: Db,
  login: string,
  disabled: boolean,
  now = new Date(),
): Promise<UserRow> {
  const u = await userByLogin(db, login);
  await db.tx(async (q) => {
    await usersRepo.setDisabled(q, u.id, disabled);
    if (disabled) await sessionsRepo.revokeAllOf(q, u.id, now);
  });
  return u;
}

export const listUsers = (db: Db) => usersRepo.list(db);
export const listPlans = (db: Db) => plansRepo.list(db);
