import type { Locale } from '@cellcloud/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Mailer } from '../mail/mailer';
import type { RateLimiter } from '../rate-limit';

/** What the account use cases need; built once by `wireAccounts` (ctx.services.accounts). */
export interface AccountDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  limiter: RateLimiter;
  /** Injectable clock (tests may move time instead of sleeping). */
  now: () => Date;
  /** Optional hook of the notifications area: unread count of a user. */
  unreadCount?: (userId: string) => Promise<number>;
}

/** Facts about the calling request that use cases record or use. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  locale: Locale;
}
