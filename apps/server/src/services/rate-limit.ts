import type { Db } from '../db/client';
import { rateLimitsRepo } from '../db/repos/rate-limits';
import { AppError } from '../http/errors';

export interface LimitRule {
  /** Allowed hits per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Brute-force protection with fixed-window counters stored in the database, so limits hold
 * across restarts and across processes sharing one PostgreSQL.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  private window(rule: LimitRule) {
    const ms = rule.windowSeconds * 1000;
    const start = Math.floor(this.now().getTime() / ms) * ms;
    return { start: new Date(start), retryAfter: Math.max(1, Math.ceil((start + ms - this.now().getTime()) / 1000)) };
  }

  /** Counts one hit; throws RATE_LIMITED once the window's limit is exceeded. */
  async consume(bucket: string, key: string, rule: LimitRule): Promise<void> {
    const w = this.window(rule);
    const hits = await rateLimitsRepo.hit(this.db, bucket, key.toLowerCase(), w.start);
    if (hits > rule.limit) throw new AppError('RATE_LIMITED', { seconds: w.retryAfter });
    if (Math.random() < 0.01) await rateLimitsRepo.prune(this.db, new Date(this.now().getTime() - 86_400_000));
  }

  /** Throws RATE_LIMITED if the key already used up the window (without counting a hit). */
  async check(bucket: string, key: string, rule: LimitRule): Promise<void> {
    const w = this.window(rule);
    const hits = await rateLimitsRepo.hits(this.db, bucket, key.toLowerCase(), w.start);
    if (hits >= rule.limit) throw new AppError('RATE_LIMITED', { seconds: w.retryAfter });
  }

  /** Counts one hit without throwing (e.g. a failed login attempt). */
  async record(bucket: string, key: string, rule: LimitRule): Promise<void> {
    await rateLimitsRepo.hit(this.db, bucket, key.toLowerCase(), this.window(rule).start);
  }

  async reset(bucket: string, key: string): Promise<void> {
    await rateLimitsRepo.clear(this.db, bucket, key.toLowerCase());
  }
}

/** The limits applied to account calls (per account and per IP). */
export const ACCOUNT_LIMITS = {
  /** Failed logins per account before it is locked for the rest of the window. */
  loginFailuresPerAccount: { limit: 5, windowSeconds: 15 * 60 },
  /** Failed logins per client IP (any accounts). */
  loginFailuresPerIp: { limit: 30, windowSeconds: 15 * 60 },
  codePerEmailHourly: { limit: 10, windowSeconds: 3600 },
  codePerIp: { limit: 30, windowSeconds: 3600 },
  contactPerIp: { limit: 10, windowSeconds: 3600 },
} satisfies Record<string, LimitRule>;
