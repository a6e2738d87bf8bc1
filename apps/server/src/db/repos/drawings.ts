import type { Queryable } from '../client';

/** SQL of `user_drawings` (one scene per user and app). */
export const drawingsRepo = {
  async get(
    q: Queryable,
    userId: string,
    app: string,
  ): Promise<{ scene: Record<string, unknown>; updated_at: Date } | undefined> {
    return (
      await q.query<{ scene: Record<string, unknown>; updated_at: Date }>(
        'SELECT scene, updated_at FROM user_drawings WHERE user_id = $1 AND app = $2',
        [userId, app],
      )
    )[0];
  },
  async put(q: Queryable, userId: string, app: string, scene: object): Promise<Date> {
    const [row] = await q.query<{ updated_at: Date }>(
      `INSERT INTO user_drawings (user_id, app, scene, updated_at) VALUES ($1,$2,$3::text::jsonb, now())
       ON CONFLICT (user_id, app) DO UPDATE SET scene = excluded.scene, updated_at = now() RETURNING updated_at`,
      [userId, app, JSON.stringify(scene)],
    );
    return row!.updated_at;
  },
};
