import type { Queryable } from '../client';

/**
 * Unread notifications of a user, read from the notifications area's table when it exists
 * (columns user_id and read_at, or is_read/read); 0 when there is no such table yet.
 */
export async function unreadNotificationCount(q: Queryable, userId: string): Promise<number> {
  const cols = await q.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'notifications'`,
  );
  const names = new Set(cols.map((c) => c.column_name));
  if (!names.has('user_id')) return 0;
  const unread = names.has('read_at')
    ? 'read_at IS NULL'
    : names.has('is_read')
      ? 'NOT is_read'
      : names.has('read')
        ? 'NOT read'
        : null;
  if (!unread) return 0;
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND ${unread}`,
    [userId],
  );
  return Number(row?.n ?? 0);
}
