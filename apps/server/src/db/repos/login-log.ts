import type { Queryable } from '../client';

export interface LoginLogDbRow {
  login_at: Date;
  ip: string;
  user_agent: string;
  success: boolean;
}

/** SQL of `login_log`. */
export const loginLogRepo = {
  async insert(
    q: Queryable,
    r: { userId: string; at: Date; ip: string; userAgent: string; success: boolean },
  ) {
    await q.query(
      'INSERT INTO login_log (user_id, login_at, ip, user_agent, success) VALUES ($1,$2,$3,$4,$5)',
      [r.userId, r.at, r.ip, r.userAgent, r.success],
    );
  },
  async latest(q: Queryable, userId: string, limit: number): Promise<LoginLogDbRow[]> {
    return q.query<LoginLogDbRow>(
      'SELECT login_at, ip, user_agent, success FROM login_log WHERE user_id = $1 ORDER BY login_at DESC, id DESC LIMIT $2',
      [userId, limit],
    );
  },
};
