import type { Queryable } from '../client';

export interface SessionUserRow {
  user_id: string;
  username: string;
  is_admin: boolean;
  plan_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
  disabled_at: Date | null;
}

/** SQL of `sessions`: one row per issued token, keyed by the token's sha256. */
export const sessionsRepo = {
  async insert(
    q: Queryable,
    s: { tokenHash: string; userId: string; expiresAt: Date; ip: string; userAgent: string },
  ) {
    await q.query(
      'INSERT INTO sessions (token_hash, user_id, expires_at, ip, user_agent) VALUES ($1,$2,$3,$4,$5)',
      [s.tokenHash, s.userId, s.expiresAt, s.ip, s.userAgent],
    );
  },
  async withUser(q: Queryable, tokenHash: string): Promise<SessionUserRow | undefined> {
    const rows = await q.query<SessionUserRow>(
      `SELECT s.user_id, u.username, u.is_admin, u.plan_id, s.expires_at, s.revoked_at, u.disabled_at
         FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
      [tokenHash],
    );
    return rows[0];
  },
  async revoke(q: Queryable, tokenHash: string, at: Date): Promise<void> {
    await q.query('UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
      tokenHash,
      at,
    ]);
  },
  /** Revokes every open session of a user, optionally keeping one (the caller's). */
  async revokeAllOf(q: Queryable, userId: string, at: Date, keepHash?: string): Promise<void> {
    await q.query(
      'UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND token_hash <> $3',
      [userId, at, keepHash ?? ''],
    );
  },
};
