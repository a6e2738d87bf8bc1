import { accountPaths, OUTBOX_LINE, PRIVILEGES } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { lastCode, logIn, registration, sendCode, signUp, uniq } from './support/accounts';

describe(`accounts: registration, login, info, sign-out on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
  });
  afterAll(async () => s?.close());

  it('mails a 6-digit code, prints the outbox line and stores only a hash', async () => {
    const email = `${uniq('mail')}@example.org`;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const r = await s.request('POST', accountPaths.sendMessage, {
        body: { email, purpose: 'register' },
        form: true,
      });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ resendAfterSeconds: 60 });
      const line = log.mock.calls.map((c) => String(c[0])).find((l) => OUTBOX_LINE.test(l));
      const m = line!.match(OUTBOX_LINE)!;
      expect(m[1]).toBe(email);
      expect(m[2]).toBe('register');
      expect(m[3]).toBe(await lastCode(s, email));
      const rows = await s.ctx.db.query<{ code_hash: string; expires_at: Date; created_at: Date }>(
        'SELECT * FROM email_codes WHERE email = $1',
        [email],
      );
      expect(rows[0]!.code_hash).not.toContain(m[3]!);
      expect(new Date(rows[0]!.expires_at).getTime() - new Date(rows[0]!.created_at).getTime()).toBe(
        2 * 3600_000,
      );
    } finally {
      log.mockRestore();
    }
  });

  it('registers with every docs/product/entities.md#registration field (form post) and logs in by user name or e-mail', async () => {
    const username = uniq('Reg');
    const email = `${username}@Example.org`;
    const code = await sendCode(s, email);
    const r = await s.request('POST', accountPaths.register, {
      body: registration(username, email, code, { phone: '+49 30 1234567', marketingConsent: 'on' }),
      form: true,
      lang: 'en-US',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, msg: 'Registration successful', data: { username } });
    const [row] = await s.ctx.db.query<{
      password_hash: string;
      marketing_consent: boolean;
      plan_id: string;
    }>('SELECT * FROM users WHERE username = $1', [username]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.marketing_consent).toBe(true);
    expect(row!.plan_id).toBe('researcher');

    const byName = await s.request('POST', accountPaths.login, {
      body: { username, password: 'Secret12' },
      form: true,
    });
    expect(byName.body.data).toMatchObject({ user_name: username });
    expect(byName.body.data.token.length).toBeGreaterThan(30);
    const byEmail = await s.request('POST', accountPaths.login, {
      body: { username: email.toLowerCase(), password: 'Secret12' },
    });
    expect(byEmail.status).toBe(200);
    const stored = await s.ctx.db.query<{ token_hash: string; created_at: Date; expires_at: Date }>(
      'SELECT * FROM sessions',
    );
    expect(stored.map((x) => x.token_hash)).not.toContain(byEmail.body.data.token);
    // TOKEN_TTL_HOURS default: 168 hours (within the second of the statement times).
    const ttl = new Date(stored[0]!.expires_at).getTime() - new Date(stored[0]!.created_at).getTime();
    expect(Math.abs(ttl - 168 * 3600_000)).toBeLessThan(5_000);
  });

  it('answers availability checks for user name, e-mail and phone', async () => {
    const u = await signUp(s);
    const check = (p: string, value: string) =>
      s.request('GET', `${p}?value=${encodeURIComponent(value)}`).then((r) => r.body.data);
    expect(await check(accountPaths.checkUsername, u.username.toUpperCase())).toEqual({
      available: false,
      valid: true,
    });
    expect(await check(accountPaths.checkUsername, 'free_name_x')).toEqual({ available: true, valid: true });
    expect(await check(accountPaths.checkUsername, '1abc')).toEqual({ available: true, valid: false });
    expect(await check(accountPaths.checkEmail, u.email)).toEqual({ available: false, valid: true });
    expect(await check(accountPaths.checkEmail, 'nope')).toEqual({ available: true, valid: false });
    expect(await check(accountPaths.checkPhone, '+49 30 1234567')).toMatchObject({ available: false });
    expect(await check(accountPaths.checkPhone, '+1 555 0100')).toEqual({ available: true, valid: true });
  });

  describe('docs/product/validation.md#passwords registration rules, each with its translated message', () => {
    const cases: [string, Record<string, string>, string, string][] = [
      [
        'username too short',
        { username: 'ab' },
        'The user name must be 3 to 50 characters long.',
        '用户名长度须为 3 到 50 个字符。',
      ],
      [
        'username too long',
        { username: 'a'.repeat(51) },
        'The user name must be 3 to 50 characters long.',
        '用户名长度须为 3 到 50 个字符。',
      ],
      [
        'username with a space',
        { username: 'ab cd' },
        'The user name must not contain spaces.',
        '用户名不能包含空格。',
      ],
      [
        'username with a leading digit',
        { username: '9abc' },
        'The user name must not start with a digit.',
        '用户名不能以数字开头。',
      ],
      [
        'username with a special character',
        { username: 'ab-cd!' },
        'The user name may contain only letters, digits and underscores.',
        '用户名只能包含字母、数字和下划线。',
      ],
      [
        'password too short',
        { password: 'Ab1', repeatPassword: 'Ab1' },
        'The password must be 6 to 16 characters with at least one uppercase letter and one digit.',
        '密码须为 6 到 16 个字符，且至少包含一个大写字母和一个数字。',
      ],
      [
        'password too long',
        { password: 'Abcdefgh12345678x', repeatPassword: 'Abcdefgh12345678x' },
        'The password must be 6 to 16 characters with at least one uppercase letter and one digit.',
        '密码须为 6 到 16 个字符，且至少包含一个大写字母和一个数字。',
      ],
      [
        'password without uppercase',
        { password: 'secret12', repeatPassword: 'secret12' },
        'The password must be 6 to 16 characters with at least one uppercase letter and one digit.',
        '密码须为 6 到 16 个字符，且至少包含一个大写字母和一个数字。',
      ],
      [
        'password without digit',
        { password: 'Secretxx', repeatPassword: 'Secretxx' },
        'The password must be 6 to 16 characters with at least one uppercase letter and one digit.',
        '密码须为 6 到 16 个字符，且至少包含一个大写字母和一个数字。',
      ],
      [
        'repeat does not match',
        { repeatPassword: 'Secret13' },
        'Passwords do not match',
        '两次输入的密码不一致',
      ],
      [
        'invalid e-mail',
        { email: 'not-an-email' },
        'Please enter a valid e-mail address.',
        '请输入有效的电子邮箱地址。',
      ],
      [
        'code not 6 digits',
        { emailCode: '12ab' },
        'The e-mail code has 6 digits.',
        '邮箱验证码为 6 位数字。',
      ],
      [
        'terms not accepted',
        { termsAgreed: 'false' },
        'Please read and accept the terms of use and the privacy policy.',
        '请阅读并同意用户协议和隐私政策。',
      ],
      ['institution missing', { institution: '' }, 'This field is required.', '此项为必填项。'],
    ];
    it.each(cases)('%s', async (_name, patch, en, zh) => {
      const body = registration('valid_name', 'valid@example.org', '123456', patch);
      const r = await s.request('POST', accountPaths.register, { body, form: true, lang: 'en-US' });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(en);
      const rz = await s.request('POST', accountPaths.register, { body, form: true, lang: 'zh-CN' });
      expect(rz.body.msg).toBe(zh);
    });
  });

  it('refuses a wrong code, a missing code and a reused user name or e-mail', async () => {
    const username = uniq('Dup');
    const email = `${username}@example.org`;
    const noCode = await s.request('POST', accountPaths.register, {
      body: registration(username, email, '123456'),
      form: true,
    });
    expect(noCode.status).toBe(400);
    expect(noCode.body.msg).toMatch(/No code was sent/);
    const code = await sendCode(s, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const bad = await s.request('POST', accountPaths.register, {
      body: registration(username, email, wrong),
      form: true,
      lang: 'zh-CN',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('邮箱验证码错误，请使用最新一封邮件中的验证码。');
    expect(
      (
        await s.request('POST', accountPaths.register, {
          body: registration(username, email, code),
          form: true,
        })
      ).status,
    ).toBe(200);

    const again = await s.request('POST', accountPaths.register, {
      body: registration(username.toUpperCase(), `x${email}`, code),
      form: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/user name is already registered/);
    const sameMail = await s.request('POST', accountPaths.sendMessage, {
      body: { email, purpose: 'register' },
      form: true,
    });
    expect(sameMail.status).toBe(409);
    expect(sameMail.body.msg).toMatch(/e-mail address is already registered/);
  });

  it('refuses an expired code (valid 2 hours) and a code used twice', async () => {
    const username = uniq('Exp');
    const email = `${username}@example.org`;
    const code = await sendCode(s, email);
    await s.ctx.db.query(
      `UPDATE email_codes SET expires_at = now() - interval '1 second' WHERE email = lower($1)`,
      [email],
    );
    const r = await s.request('POST', accountPaths.register, {
      body: registration(username, email, code),
      form: true,
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(
      'The e-mail code has expired (codes are valid for 2 hours). Please request a new one.',
    );
    await s.ctx.db.query(
      `UPDATE email_codes SET expires_at = now() + interval '1 hour' WHERE email = lower($1)`,
      [email],
    );
    expect(
      (
        await s.request('POST', accountPaths.register, {
          body: registration(username, email, code),
          form: true,
        })
      ).status,
    ).toBe(200);
    const reuse = await s.request('POST', accountPaths.register, {
      body: registration(uniq('Other'), email, code),
      form: true,
    });
    expect(reuse.status).toBe(409); // e-mail now taken: checked before the code
  });

  it('refuses a wrong password and a too short login password, with translated messages', async () => {
    const u = await signUp(s);
    const wrong = await s.request('POST', accountPaths.login, {
      body: { username: u.username, password: 'Wrong123' },
      form: true,
      lang: 'en-US',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('Wrong user name, e-mail or password.');
    const zh = await s.request('POST', accountPaths.login, {
      body: { username: 'nobody_here', password: 'Wrong123' },
      form: true,
      lang: 'zh-CN',
    });
    expect(zh.body.msg).toBe('用户名、邮箱或密码错误。');
    const short = await s.request('POST', accountPaths.login, {
      body: { username: u.username, password: '12345' },
      form: true,
    });
    expect(short.status).toBe(400);
    expect(short.body.msg).toBe('The password must be at least 6 characters.');
  });

  it('answers account info with the menu privileges, switches and unread count', async () => {
    const u = await signUp(s);
    const r = await s.request('GET', accountPaths.info, { token: u.token });
    expect(r.status).toBe(200);
    const info = r.body.data;
    expect(info.user).toMatchObject({
      username: u.username,
      email: u.email,
      firstName: 'Ada',
      institution: 'Test Institute',
      subscriptionUntil: null,
    });
    expect(info.user).not.toHaveProperty('isAdmin');
    expect(info.privileges).toHaveLength(PRIVILEGES.length);
    const byKey = Object.fromEntries(info.privileges.map((p: { permission: string }) => [p.permission, p]));
    expect(byKey.importData).toMatchObject({
      id: 3,
      url: '/importdata',
      type: 1,
      disabled: false,
      hidden: false,
    });
    expect(byKey.integrateSynEcoSysData).toMatchObject({ disabled: true, parentId: 4 });
    expect(byKey.exploreTrajectory).toMatchObject({ type: 2, disabled: false });
    expect(info.switches).toMatchObject({ docType: 'global', canonicalMarkers: true });
    expect(info.unreadNotifications).toBe(0);
  });

  it('counts unread notifications in the account info', async () => {
    const u = await signUp(s);
    const [row] = await s.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [
      u.username,
    ]);
    await s.ctx.db.query(
      `INSERT INTO notifications (user_id, kind) VALUES ($1, 'job.completed'), ($1, 'job.failed')`,
      [row!.id],
    );
    await s.ctx.db.query(
      `INSERT INTO notifications (user_id, kind, read) VALUES ($1, 'job.completed', true)`,
      [row!.id],
    );
    const r = await s.request('GET', accountPaths.info, { token: u.token });
    expect(r.body.data.unreadNotifications).toBe(2);
  });

  it('401s without a token, with an unknown token, and with a revoked or expired token', async () => {
    const none = await s.request('GET', accountPaths.info);
    expect(none.status).toBe(401);
    const unknown = await s.request('GET', accountPaths.info, { token: 'not-a-token' });
    expect(unknown.status).toBe(401);

    const u = await signUp(s);
    const out = await s.request('GET', accountPaths.signOut, { token: u.token });
    expect(out.status).toBe(200);
    const revoked = await s.request('GET', accountPaths.info, { token: u.token, lang: 'en-US' });
    expect(revoked.status).toBe(401);
    expect(revoked.body.msg).toBe('Login status has expired, please login again');

    const t2 = await logIn(s, u.username, u.password);
    expect((await s.request('GET', accountPaths.info, { token: t2 })).status).toBe(200);
    await s.ctx.db.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE username = $1)`,
      [u.username],
    );
    const expired = await s.request('GET', accountPaths.info, { token: t2, lang: 'zh-CN' });
    expect(expired.status).toBe(401);
    expect(expired.body.msg).toBe('登录状态已过期，请重新登录');
  });
});
