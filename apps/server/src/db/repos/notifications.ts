import type { Queryable } from '../client';
import { tsText } from './jobs';

export interface NotificationRow {
  id: string;
  user_id: string;
  kind: string;
  params: Record<string, string | number>;
  job_id: string | null;
  read: boolean;
  created_at: Date;
}

export const notificationsRepo = {
  async insert(
    q: Queryable,
    n: { userId: string; kind: string; params: Record<string, string | number>; jobId?: string | null },
  ) {
    const [row] = await q.query<NotificationRow>(
      'INSERT INTO notifications (user_id, kind, params, job_id) VALUES ($1, $2, $3, $4) RETURNING *',
      [n.userId, n.kind, JSON.stringify(n.params), n.jobId ?? null],
    );
    return row!;
  },

  async unreadCount(q: Queryable, userId: string): Promise<number> {
    const [r] = await q.query<{ n: string }>(
      'SELECT count(*) AS n FROM notifications WHERE user_id = $1 AND NOT read',
      [userId],
    );
    return Number(r?.n ?? 0);
  },

  async list(q: Queryable, userId: string, unreadOnly: boolean, limit: number, offset: number) {
    const where = `user_id = $1${unreadOnly ? ' AND NOT read' : ''}`;
    const [c] = await q.query<{ n: string }>(`SELECT count(*) AS n FROM notifications WHERE ${where}`, [
      userId,
    ]);
    const rows = await q.query<NotificationRow>(
      `SELECT * FROM notifications WHERE ${where} ORDER BY seq DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    return { total: Number(c?.n ?? 0), rows };
  },

  async markRead(q: Queryable, userId: string, id: string, read: boolean): Promise<boolean> {
    const r = await q.query(
      'UPDATE notifications SET read = $3 WHERE id = $1 AND user_id = $2 RETURNING id',
      [id, userId, read],
    );
    return r.length === 1;
  },

  async delete(q: Queryable, userId: string, ids?: string[]): Promise<number> {
    const r = ids?.length
      ? await q.query('DELETE FROM notifications WHERE user_id = $1 AND id = ANY($2::text[]) RETURNING id', [
          userId,
          ids,
        ])
      : await q.query('DELETE FROM notifications WHERE user_id = $1 RETURNING id', [userId]);
    return r.length;
  },

  /** Users with notifications created after `since` (for the live badge). */
  async usersSince(q: Queryable, since: string): Promise<{ user_id: string; ts: string }[]> {
    return q.query(
      `SELECT user_id, ${tsText('max(created_at)')} AS ts FROM notifications WHERE created_at > $1::timestamptz GROUP BY user_id`,
      [since],
    );
  },
};
