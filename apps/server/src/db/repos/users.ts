import type { Queryable } from '../client';

/** A row of `users` as the services see it. */
export interface UserRow {
  id: string;
  username: string;
  email: string;
  phone: string | null;
  first_name: string;
  last_name: string;
  institution: string;
  research_interest: string | null;
  marketing_consent: boolean;
  password_hash: string;
  is_admin: boolean;
  plan_id: string | null;
  subscription_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

export interface NewUser {
  username: string;
  email: string;
  phone: string | null;
  firstName: string;
  lastName: string;
  institution: string;
  researchInterest: string | null;
  marketingConsent: boolean;
  passwordHash: string;
  isAdmin: boolean;
  planId: string | null;
}

/** SQL of the `users` table. Username and e-mail comparisons are case-insensitive. */
export const usersRepo = {
  async insert(q: Queryable, u: NewUser): Promise<UserRow> {
    const [row] = await q.query<UserRow>(
      `INSERT INTO users (username, email, phone, first_name, last_name, institution, research_interest,
         marketing_consent, password_hash, is_admin, plan_id)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING *`,
      [
        u.username,
        u.email,
        u.phone,
        u.firstName,
        u.lastName,
        u.institution,
        u.researchInterest,
        u.marketingConsent,
        u.passwordHash,
        u.isAdmin,
        u.planId,
      ],
    );
    return row!;
  },
  async byId(q: Queryable, id: string): Promise<UserRow | undefined> {
    return (await q.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]))[0];
  },
  async byUsername(q: Queryable, username: string): Promise<UserRow | undefined> {
    return (await q.query<UserRow>('SELECT * FROM users WHERE lower(username) = lower($1)', [username]))[0];
  },
  async byEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
    return (await q.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]))[0];
  },
  /** A user name or an e-mail (login accepts both). */
  async byLogin(q: Queryable, login: string): Promise<UserRow | undefined> {
    const col = login.includes('@') ? 'email' : 'username';
    return (await q.query<UserRow>(`SELECT * FROM users WHERE lower(${col}) = lower($1)`, [login]))[0];
  },
  async phoneTaken(q: Queryable, phone: string): Promise<boolean> {
    const digits = phone.replace(/[^0-9+]/g, '');
    const rows = await q.query(
      `SELECT 1 FROM users WHERE regexp_replace(phone, '[^0-9+]', '', 'g') = $1 LIMIT 1`,
      [digits],
    );
    return rows.length > 0;
  },
  async setPassword(q: Queryable, id: string, hash: string): Promise<void> {
    await q.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, hash]);
  },
  async setEmail(q: Queryable, id: string, email: string): Promise<void> {
    await q.query('UPDATE users SET email = $2, updated_at = now() WHERE id = $1', [id, email]);
  },
  async setPlan(q: Queryable, id: string, planId: string): Promise<void> {
    await q.query('UPDATE users SET plan_id = $2, updated_at = now() WHERE id = $1', [id, planId]);
  },
  async setDisabled(q: Queryable, id: string, disabled: boolean): Promise<void> {
    await q.query(
      `UPDATE users SET disabled_at = CASE WHEN $2 THEN now() ELSE NULL END, updated_at = now() WHERE id = $1`,
      [id, disabled],
    );
  },
  async setAdmin(q: Queryable, id: string, admin: boolean): Promise<void> {
    await q.query('UPDATE users SET is_admin = $2, updated_at = now() WHERE id = $1', [id, admin]);
  },
  async list(q: Queryable): Promise<UserRow[]> {
    return q.query<UserRow>('SELECT * FROM users ORDER BY created_at, username');
  },
};

/** True for a unique-constraint violation (PostgreSQL and PGlite both report SQLSTATE 23505). */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err?.code !== '23505') return false;
  return !constraint || err.constraint === constraint || (err.message ?? '').includes(constraint);
}
