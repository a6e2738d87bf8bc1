import type { Queryable } from '../client';

/** SQL of `user_preferences` (one JSON object per user, merged on write). */
export const preferencesRepo = {
  async get(q: Queryable, userId: string): Promise<Record<string, unknown> | undefined> {
    return (
      await q.query<{ prefs: Record<string, unknown> }>(
        'SELECT prefs FROM user_preferences WHERE user_id = $1',
        [userId],
      )
    )[0]?.prefs;
  },
  async merge(q: Queryable, userId: string, patch: object): Promise<Record<string, unknown>> {
    const [row] = await q.query<{ prefs: Record<string, unknown> }>(
      `INSERT INTO user_preferences (user_id, prefs, updated_at) VALUES ($1, $2::text::jsonb, now())
       ON CONFLICT (user_id) DO UPDATE SET prefs = user_preferences.prefs || excluded.prefs, updated_at = now()
       RETURNING prefs`,
      [userId, JSON.stringify(patch)],
    );
    return row!.prefs;
  },
};
