import type { Queryable } from '../client';

export interface EmailCodeRow {
  id: string;
  code_hash: string;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
  failed_attempts: number;
}

/** SQL of `email_codes` (hashed 6-digit codes by e-mail and purpose). */
export const emailCodesRepo = {
  async insert(
    q: Queryable,
    c: { email: string; purpose: string; codeHash: string; createdAt: Date; expiresAt: Date },
  ) {
    await q.query(
      'INSERT INTO email_codes (email, purpose, code_hash, created_at, expires_at) VALUES ($1,$2,$3,$4,$5)',
      [c.email.toLowerCase(), c.purpose, c.codeHash, c.createdAt, c.expiresAt],
    );
  },
  /** The newest code for an address and purpose (only the newest one counts). */
  async latest(q: Queryable, email: string, purpose: string): Promise<EmailCodeRow | undefined> {
    const rows = await q.query<EmailCodeRow>(
      `SELECT id, code_hash, created_at, expires_at, consumed_at, failed_attempts FROM email_codes
        WHERE lower(email) = lower($1) AND purpose = $2 ORDER BY created_at DESC LIMIT 1`,
      [email, purpose],
    );
    return rows[0];
  },
  async consume(q: Queryable, id: string, at: Date): Promise<boolean> {
    const rows = await q.query(
      'UPDATE email_codes SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL RETURNING id',
      [id, at],
    );
    return rows.length === 1;
  },
  async countFailure(q: Queryable, id: string): Promise<void> {
    await q.query('UPDATE email_codes SET failed_attempts = failed_attempts + 1 WHERE id = $1', [id]);
  },
};
