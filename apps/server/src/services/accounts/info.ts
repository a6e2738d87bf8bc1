import type { AccountInfo } from '@cellcloud/contracts';
import { unreadNotificationCount } from '../../db/repos/unread-count';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { privilegesOfPlan } from '../plans/user-privileges';
import type { AccountDeps } from './deps';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** GET /account/info: the user, the privileges of its plan (menu), display switches, unread count. */
export async function accountInfo(d: AccountDeps, userId: string): Promise<AccountInfo> {
  const u = await usersRepo.byId(d.db, userId);
  if (!u) throw new AppError('UNAUTHENTICATED');
  const p = await privilegesOfPlan(d.db, u.plan_id);
  const unread = d.unreadCount ? await d.unreadCount(u.id) : await unreadNotificationCount(d.db, u.id);
  return {
    user: {
      id: u.id,
      username: u.username,
      firstName: u.first_name,
      lastName: u.last_name,
      email: u.email,
      phone: u.phone,
      institution: u.institution,
      researchInterest: u.research_interest,
      marketingConsent: u.marketing_consent,
      createdAt: new Date(u.created_at).toISOString(),
      subscriptionUntil: iso(u.subscription_until),
    },
    privileges: p.entries,
    switches: p.switches,
    unreadNotifications: unread,
  };
}
