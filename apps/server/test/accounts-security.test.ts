import { accountPaths, drawingsPath } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansRepo } from '../src/db/repos/plans';
import { setUserDisabled } from '../src/services/accounts/admin';
import { wireAccounts } from '../src/services/accounts/wire';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { lastCode, logIn, sendCode, signUp, uniq } from './support/accounts';

describe(`accounts: passwords, e-mail, limits, privileges on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
  });
  afterAll(async () => s?.close());

  /** A request from another client address (rate limits are per IP). */
  const from = (ip: string, method: 'GET' | 'POST', url: string, body?: object) =>
    s.app
      .inject({ method, url, remoteAddress: ip, payload: body, headers: { 'x-lang': 'en-US' } })
      .then((r) => ({ status: r.statusCode, body: r.json() }));

  it('resets a forgotten password with a code, revoking every session', async () => {
    const u = await signUp(s);
    const unknown = await s.request('POST', accountPaths.sendMessage, {
      body: { email: 'nobody@example.org', purpose: 'reset' },
      form: true,
    });
    // Same answer as for a registered address (issue 12: no enumeration).
    expect(unknown.status).toBe(200);
    expect(unknown.body.msg).toMatch(/If an account uses nobody@example.org/);
    const code = await sendCode(s, u.email, 'reset');
    const mismatch = await s.request('POST', accountPaths.forgotPassword, {
      body: { email: u.email, code, password: 'NewPass99', repeatPassword: 'NewPass98' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.msg).toBe('Passwords do not match');
    const r = await s.request('POST', accountPaths.forgotPassword, {
      body: { email: u.email, code, password: 'NewPass99', repeatPassword: 'NewPass99' },
    });
    expect(r.status).toBe(200);
    expect((await s.request('GET', accountPaths.info, { token: u.token })).status).toBe(401);
    expect(
      (await s.request('POST', accountPaths.login, { body: { username: u.username, password: u.password } }))
        .status,
    ).toBe(400);
    await logIn(s, u.username, 'NewPass99');
    const reuse = await s.request('POST', accountPaths.forgotPassword, {
      body: { email: u.email, code, password: 'NewPass77', repeatPassword: 'NewPass77' },
    });
    expect(reuse.body.msg).toMatch(/already used/);
  });

  it('enforces the 60 s resend wait and kills a code after 5 wrong guesses', async () => {
    const email = `${uniq('wait')}@example.org`;
    const code = await sendCode(s, email);
    const again = await s.request('POST', accountPaths.sendMessage, {
      body: { email, purpose: 'register' },
      form: true,
      lang: 'en-US',
    });
    expect(again.status).toBe(429);
    expect(again.body.msg).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    const body = (c: string) => ({
      username: uniq('G'),
      firstName: 'A',
      lastName: 'B',
      email,
      password: 'Secret12',
      repeatPassword: 'Secret12',
      institution: 'I',
      emailCode: c,
      termsAgreed: true,
    });
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++)
      expect((await s.request('POST', accountPaths.register, { body: body(wrong) })).body.msg).toMatch(
        /code is wrong/,
      );
    const r = await s.request('POST', accountPaths.register, { body: body(code) });
    expect(r.body.msg).toBe('Too many wrong codes. Please request a new code.');
  });

  it('changes the password (old one checked) and keeps only the current session', async () => {
    const u = await signUp(s);
    const other = await logIn(s, u.username, u.password);
    const bad = await s.request('POST', accountPaths.changePassword, {
      token: u.token,
      body: { oldPassword: 'Wrong999', password: 'Changed1', repeatPassword: 'Changed1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('The current password is wrong.');
    const ok = await s.request('POST', accountPaths.changePassword, {
      token: u.token,
      body: { oldPassword: u.password, password: 'Changed1', repeatPassword: 'Changed1' },
    });
    expect(ok.status).toBe(200);
    expect((await s.request('GET', accountPaths.info, { token: u.token })).status).toBe(200);
    expect((await s.request('GET', accountPaths.info, { token: other })).status).toBe(401);
    await logIn(s, u.username, 'Changed1');
  });

  it('changes the e-mail with a code sent to the new address', async () => {
    const u = await signUp(s);
    const taken = await signUp(s);
    expect(
      (
        await s.request('POST', accountPaths.sendMessage, {
          body: { email: taken.email, purpose: 'changeEmail' },
        })
      ).status,
    ).toBe(409);
    const next = `${uniq('new')}@example.org`;
    const code = await sendCode(s, next, 'changeEmail');
    const r = await s.request('POST', accountPaths.changeEmail, {
      token: u.token,
      body: { email: next, code },
    });
    expect(r.status).toBe(200);
    const info = await s.request('GET', accountPaths.info, { token: u.token });
    expect(info.body.data.user.email).toBe(next);
    await logIn(s, next, u.password);
  });

  it('keeps a login log of the last 10 attempts with time and IP', async () => {
    const u = await signUp(s);
    await s.request('POST', accountPaths.login, { body: { username: u.username, password: 'Wrong123' } });
    for (let i = 0; i < 10; i++) await logIn(s, u.username, u.password);
    const r = await s.request('GET', accountPaths.loginLog, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(10);
    expect(r.body.data[0]).toMatchObject({ ip: '127.0.0.1', success: true });
    expect(Date.parse(r.body.data[0].loginAt)).toBeGreaterThanOrEqual(Date.parse(r.body.data[9].loginAt));
    const all = await s.ctx.db.query<{ success: boolean }>(
      'SELECT success FROM login_log l JOIN users u ON u.id = l.user_id WHERE u.username = $1',
      [u.username],
    );
    expect(all.filter((x) => !x.success)).toHaveLength(1);
  });

  it('locks an account after 5 failed logins (per account, also from other IPs)', async () => {
    const u = await signUp(s);
    for (let i = 0; i < 5; i++)
      expect(
        (
          await from(`10.0.0.${i + 1}`, 'POST', accountPaths.login, {
            username: u.username,
            password: 'Wrong123',
          })
        ).status,
      ).toBe(400);
    const locked = await from('10.0.1.1', 'POST', accountPaths.login, {
      username: u.username,
      password: u.password,
    });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(/Too many attempts/);
    // The lock is stored in the database: it survives a restart (a new limiter on the same db).
    const rows = await s.ctx.db.query<{ hits: number }>(
      `SELECT hits FROM rate_limits WHERE bucket = 'login-fail'`,
    );
    expect(rows.some((r) => Number(r.hits) >= 5)).toBe(true);
  });

  it('limits failed logins and code requests per IP', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++)
      last = (
        await from('10.9.9.9', 'POST', accountPaths.login, { username: `ghost${i}`, password: 'Wrong123' })
      ).status;
    expect(last).toBe(429);
    let codes = 0;
    for (let i = 0; i < 31; i++)
      codes = (
        await from('10.8.8.8', 'POST', accountPaths.sendMessage, {
          email: `ip${i}_${uniq()}@example.org`,
          purpose: 'register',
        })
      ).status;
    expect(codes).toBe(429);
  });

  it('refuses a disabled user: no login, tokens stop working', async () => {
    const u = await signUp(s);
    await setUserDisabled(s.ctx.db, u.username, true);
    expect((await s.request('GET', accountPaths.info, { token: u.token })).status).toBe(401);
    const r = await s.request('POST', accountPaths.login, {
      body: { username: u.username, password: u.password },
      lang: 'zh-CN',
    });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe('该账号已被停用，请联系客服。');
    await setUserDisabled(s.ctx.db, u.username, false);
    await logIn(s, u.username, u.password);
  });

  it('refuses a disabled or hidden privilege with 403 "request a subscription"', async () => {
    const u = await signUp(s);
    const path = drawingsPath('app1');
    const first = await s.request('GET', path, { token: u.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ elements: [], appState: {}, files: {}, updatedAt: null });
    const scene = {
      elements: [{ id: 'a', type: 'rectangle' }],
      appState: { viewBackgroundColor: '#fff' },
      files: {},
    };
    expect((await s.request('PUT', path, { token: u.token, body: scene })).status).toBe(200);
    expect((await s.request('GET', path, { token: u.token })).body.data).toMatchObject({
      ...scene,
      updatedAt: expect.any(String),
    });

    await s.ctx.db.tx(async (q) => {
      await plansRepo.save(
        q,
        {
          id: 'no-tools',
          name: 'No tools',
          quotaBytes: null,
          switches: {},
          isDefault: false,
          grants: [{ permission: 'tools', disabled: true, hidden: false }],
        },
        true,
      );
    });
    await s.ctx.db.query(`UPDATE users SET plan_id = 'no-tools' WHERE username = $1`, [u.username]);
    const en = await s.request('GET', path, { token: u.token, lang: 'en-US' });
    expect(en.status).toBe(403);
    expect(en.body.msg).toBe('Resource Unavailable: request a subscription to get more access.');
    await plansRepo.setGrant(s.ctx.db, 'no-tools', { permission: 'tools', disabled: false, hidden: true });
    expect((await s.request('GET', path, { token: u.token, lang: 'zh-CN' })).body.msg).toBe(
      '资源不可用：申请订阅以获得更多权限。',
    );
    await plansRepo.setGrant(s.ctx.db, 'no-tools', { permission: 'tools', disabled: false, hidden: false });
    expect((await s.request('GET', path, { token: u.token })).status).toBe(200);
    const info = await s.request('GET', accountPaths.info, { token: u.token });
    expect(info.body.data.privileges.map((p: { permission: string }) => p.permission)).toEqual(['tools']);
  });

  it('stores contact messages', async () => {
    const r = await s.request('POST', accountPaths.contactUs, {
      body: { name: 'Ada', email: 'ada@example.org', subject: 'Hello', message: 'A question about CNV.' },
      lang: 'en-US',
    });
    expect(r.status).toBe(200);
    expect(r.body.msg).toMatch(/we received your message/);
    const rows = await s.ctx.db.query<{ message: string }>(
      'SELECT message FROM contact_messages WHERE id = $1',
      [r.body.data.id],
    );
    expect(rows[0]!.message).toBe('A question about CNV.');
    const bad = await s.request('POST', accountPaths.contactUs, {
      body: { name: 'Ada', email: 'x', subject: 'Hi', message: 'm' },
    });
    expect(bad.status).toBe(400);
  });

  it('moves an injectable clock: resend after 60 s, code expiry after 2 h, token expiry after the TTL', async () => {
    let offset = 0;
    await wireAccounts(s.ctx, { now: () => new Date(Date.now() + offset) });
    try {
      const u = await signUp(s);
      const email = `${uniq('clock')}@example.org`;
      await sendCode(s, email);
      offset = 61_000;
      const second = await sendCode(s, email); // the 60 s resend wait is over
      expect(second).toMatch(/^\d{6}$/);
      offset += 2 * 3600_000 + 1000;
      const late = await s.request('POST', accountPaths.register, {
        body: {
          username: uniq('Late'),
          firstName: 'A',
          lastName: 'B',
          email,
          password: 'Secret12',
          repeatPassword: 'Secret12',
          institution: 'I',
          emailCode: second,
          termsAgreed: true,
        },
      });
      expect(late.body.msg).toBe(
        'The e-mail code has expired (codes are valid for 2 hours). Please request a new one.',
      );
      offset = s.ctx.config.tokenTtlMs + 1000;
      const expired = await s.request('GET', accountPaths.info, { token: u.token });
      expect(expired.status).toBe(401);
      expect(expired.body.data.error).toBe('LOGIN_EXPIRED');
    } finally {
      await wireAccounts(s.ctx);
    }
  });

  it('reads codes from the outbox in order (newest wins)', async () => {
    const email = `${uniq('order')}@example.org`;
    const code = await sendCode(s, email);
    expect(await lastCode(s, email)).toBe(code);
  });
});
