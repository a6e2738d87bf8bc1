import type { Queryable } from '../client';

/** SQL of `rate_limits`: hit counters by bucket, key and time slot (see services/rate-limit.ts). */
export const rateLimitsRepo = {
  async hit(q: Queryable, bucket: string, key: string, windowStart: Date): Promise<number> {
    const [row] = await q.query<{ hits: number }>(
      `INSERT INTO rate_limits (bucket, key, window_start, hits) VALUES ($1,$2,$3,1)
       ON CONFLICT (bucket, key, window_start) DO UPDATE SET hits = rate_limits.hits + 1 RETURNING hits`,
      [bucket, key, windowStart],
    );
    return Number(row!.hits);
  },
  async hits(q: Queryable, bucket: string, key: string, windowStart: Date): Promise<number> {
    const rows = await q.query<{ hits: number }>(
      'SELECT hits FROM rate_limits WHERE bucket = $1 AND key = $2 AND window_start = $3',
      [bucket, key, windowStart],
    );
    return Number(rows[0]?.hits ?? 0);
  },
  /** Hit counts of the slots that started after `since`, newest first (sliding windows). */
  async slotsSince(
    q: Queryable,
    bucket: string,
    key: string,
    since: Date,
  ): Promise<{ start: Date; hits: number }[]> {
    const rows = await q.query<{ window_start: Date | string; hits: number }>(
      'SELECT window_start, hits FROM rate_limits WHERE bucket = $1 AND key = $2 AND window_start > $3 ORDER BY window_start DESC',
      [bucket, key, since],
    );
    return rows.map((r) => ({ start: new Date(r.window_start), hits: Number(r.hits) }));
  },
  async clear(q: Queryable, bucket: string, key: string): Promise<void> {
    await q.query('DELETE FROM rate_limits WHERE bucket = $1 AND key = $2', [bucket, key]);
  },
  async prune(q: Queryable, before: Date): Promise<void> {
    await q.query('DELETE FROM rate_limits WHERE window_start < $1', [before]);
  },
};
