import { accountPaths } from '@cellcloud/contracts';
import type { TestServer } from './harness';

/** Test helpers for account flows, all through HTTP (codes read from the mail outbox table). */

let seq = 0;
export const uniq = (prefix = 'user') => `${prefix}_${process.pid}_${++seq}`;

/** The newest code mailed to an address (the outbox table keeps every mail body). */
export async function lastCode(s: TestServer, email: string): Promise<string> {
  const rows = await s.ctx.db.query<{ body: string }>(
    'SELECT body FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at DESC LIMIT 1',
    [email],
  );
  const m = rows[0]?.body.match(/\b(\d{6})\b/);
  if (!m) throw new Error(`no code mailed to ${email}`);
  return m[1]!;
}

export async function sendCode(
  s: TestServer,
  email: string,
  purpose: 'register' | 'reset' | 'changeEmail' = 'register',
) {
  const r = await s.request('POST', accountPaths.sendMessage, { body: { email, purpose }, form: true });
  if (r.status !== 200) throw new Error(`sendMessage ${r.status}: ${r.body?.msg}`);
  return lastCode(s, email);
}

export function registration(
  username: string,
  email: string,
  code: string,
  extra: Record<string, string> = {},
) {
  return {
    username,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    phone: '',
    password: 'Secret12',
    repeatPassword: 'Secret12',
    institution: 'Test Institute',
    researchInterest: 'immunology',
    emailCode: code,
    marketingConsent: 'false',
    termsAgreed: 'true',
    ...extra,
  };
}

/** Registers (form post, like the web) and logs in; returns the token. */
export async function signUp(
  s: TestServer,
  opts: { username?: string; email?: string; password?: string } = {},
) {
  const username = opts.username ?? uniq();
  const email = opts.email ?? `${username}@example.org`;
  const password = opts.password ?? 'Secret12';
  const code = await sendCode(s, email);
  const reg = await s.request('POST', accountPaths.register, {
    body: registration(username, email, code, { password, repeatPassword: password }),
    form: true,
  });
  if (reg.status !== 200) throw new Error(`register ${reg.status}: ${reg.body?.msg}`);
  const token = await logIn(s, username, password);
  return { username, email, password, token };
}

export async function logIn(s: TestServer, username: string, password: string): Promise<string> {
  const r = await s.request('POST', accountPaths.login, { body: { username, password }, form: true });
  if (r.status !== 200) throw new Error(`login ${r.status}: ${r.body?.msg}`);
  return r.body.data.token as string;
}
