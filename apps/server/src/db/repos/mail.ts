import type { Queryable } from '../client';

/** SQL of `mail_outbox` and `contact_messages`. */
export const mailRepo = {
  async record(
    q: Queryable,
    m: { to: string; subject: string; body: string; transport: 'smtp' | 'log'; error?: string },
  ) {
    await q.query(
      'INSERT INTO mail_outbox (to_address, subject, body, transport, error) VALUES ($1,$2,$3,$4,$5)',
      [m.to, m.subject, m.body, m.transport, m.error ?? null],
    );
  },
  async insertContact(
    q: Queryable,
    c: { userId: string | null; name: string; email: string; subject: string; message: string; ip: string },
  ) {
    const [row] = await q.query<{ id: string }>(
      'INSERT INTO contact_messages (user_id, name, email, subject, message, ip) VALUES ($1,$2,$3,$4,$5,$6) RETURNING id',
      [c.userId, c.name, c.email, c.subject, c.message, c.ip],
    );
    return row!.id;
  },
};
