import type { AppContext } from '../../context';
import { createMailer } from '../mail/mailer';
import { syncPrivilegesAndPlans } from '../plans/sync';
import { RateLimiter } from '../rate-limit';
import type { AccountDeps } from './deps';
import { createAuthResolver } from './tokens';

/** Key of the account services in `ctx.services`. */
export const ACCOUNTS = 'accounts';
/** Key of the mailer in `ctx.services` (other areas may send mail through it). */
export const MAIL = 'mail';

/**
 * Wires the account area: syncs privileges and default plans, creates the mailer and the rate
 * limiter, registers `ctx.services.accounts` / `ctx.services.mail` and sets `ctx.auth`.
 */
export async function wireAccounts(ctx: AppContext, opts: { now?: () => Date } = {}): Promise<AccountDeps> {
  const now = opts.now ?? (() => new Date());
  await syncPrivilegesAndPlans(ctx.db);
  const mailer = createMailer(ctx.config, ctx.db);
  const deps: AccountDeps = {
    db: ctx.db,
    config: ctx.config,
    mailer,
    limiter: new RateLimiter(ctx.db, now),
    now,
  };
  deps.unreadCount = (id) => ctx.notifications.unreadCount(id);
  ctx.services.accounts = deps;
  ctx.services.mail = mailer;
  ctx.auth = createAuthResolver(ctx.db, now);
  return deps;
}

/** The account services of a context (throws if `wireAccounts` did not run). */
export function accountsOf(ctx: AppContext): AccountDeps {
  const d = ctx.services.accounts;
  if (!d) throw new Error('account services are not wired (wireAccounts in src/entry/compose.ts)');
  return d;
}
