import type { Db } from '../db/client';
import { rateLimitsRepo } from '../db/repos/rate-limits';
import { AppError } from '../errors';

export interface LimitRule {
  /** Allowed hits per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Brute-force protection with sliding-window counters stored in the database, so limits hold
 * across restarts and across processes sharing one PostgreSQL. Hits are counted in slots of
 * 1/60 of the window (15 s for 15 minutes) and a check sums the slots of the last window, so a
 * lock after N hits lasts the whole documented window from the hits that caused it (a fixed clock
 * window could end seconds after the lock began).
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  private slotMs(rule: LimitRule) {
    return Math.max(1000, Math.floor((rule.windowSeconds * 1000) / 60));
  }

  private slotStart(rule: LimitRule): Date {
    const ms = this.slotMs(rule);
    return new Date(Math.floor(this.now().getTime() / ms) * ms);
  }

  /** Hits of the last window and the seconds until the count drops below the limit again. */
  private async state(
    bucket: string,
    key: string,
    rule: LimitRule,
  ): Promise<{ hits: number; retryAfter: number }> {
    const nowMs = this.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    // A slot counts while any part of it lies in the window.
    const since = new Date(nowMs - windowMs - this.slotMs(rule) + 1);
    const slots = await rateLimitsRepo.slotsSince(this.db, bucket, key.toLowerCase(), since);
    let hits = 0;
    let retryAfter = 1;
    let found = false;
    for (const slot of slots) {
      hits += slot.hits;
      // The slot whose expiry brings the count below the limit decides the wait.
      if (hits >= rule.limit && !found) found = true;
      else continue;
      retryAfter = Math.max(
        1,
        Math.ceil((slot.start.getTime() + this.slotMs(rule) + windowMs - nowMs) / 1000),
      );
    }
    return { hits, retryAfter };
  }

  /** Counts one hit; throws RATE_LIMITED once the window's limit is exceeded. */
  async consume(bucket: string, key: string, rule: LimitRule): Promise<void> {
    await rateLimitsRepo.hit(this.db, bucket, key.toLowerCase(), this.slotStart(rule));
    const s = await this.state(bucket, key, rule);
    if (s.hits > rule.limit) throw new AppError('RATE_LIMITED', { seconds: s.retryAfter });
    if (Math.random() < 0.01)
      await rateLimitsRepo.prune(this.db, new Date(this.now().getTime() - 86_400_000));
  }

  /** Throws RATE_LIMITED if the key already used up the window (without counting a hit). */
  async check(bucket: string, key: string, rule: LimitRule): Promise<void> {
    const s = await this.state(bucket, key, rule);
    if (s.hits >= rule.limit) throw new AppError('RATE_LIMITED', { seconds: s.retryAfter });
  }

  /** Counts one hit without throwing (e.g. a failed login attempt). */
  async record(bucket: string, key: string, rule: LimitRule): Promise<void> {
    await rateLimitsRepo.hit(this.db, bucket, key.toLowerCase(), this.slotStart(rule));
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
  /** check_username / check_email / check_phone calls per client IP (the form checks as you type). */
  availabilityPerIp: { limit: 60, windowSeconds: 60 },
} satisfies Record<string, LimitRule>;
