import { Writable } from 'node:stream';
import { accountPaths, FILES_API, type UploadRow } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app';
import { wireAccounts } from '../src/services/accounts/wire';
import { announce } from './files-helpers';
import { logIn, signUp } from './support/accounts';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';

/**
 * Regression tests of issue 12 (outside probe) at the HTTP layer: tus ownership, NUL bytes and
 * unpaired surrogates, query tokens and log redaction, the sliding lock window, enumeration,
 * authentication before validation.
 */
describe(`security: HTTP layer on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
  });
  afterAll(async () => s?.close());

  const from = (ip: string, method: 'GET' | 'POST', url: string, body?: object) =>
    s.app
      .inject({ method, url, remoteAddress: ip, payload: body, headers: { 'x-lang': 'en-US' } })
      .then((r) => ({ status: r.statusCode, body: r.json() }));

  /** Announces a one-file upload and creates its tus resource (no bytes yet). */
  async function tusCreated(token: string, name: string): Promise<UploadRow> {
    const row = await announce(
      s,
      token,
      name,
      [{ name: 'data.h5ad', bytes: new Uint8Array(64) }],
      'annotated',
    );
    const meta = `slot ${Buffer.from(row.files[0]!.slot).toString('base64')},filename ${Buffer.from('data.h5ad').toString('base64')}`;
    const r = await fetch(`${s.url}${FILES_API.tus}`, {
      method: 'POST',
      headers: {
        'access-token': token,
        'tus-resumable': '1.0.0',
        'upload-length': '64',
        'upload-metadata': meta,
      },
    });
    expect(r.status).toBe(201);
    return row;
  }

  it('1. tus: the id the guard checks is the id the tus server acts on (query strings and extra segments refused)', async () => {
    const victim = await signUp(s);
    const attacker = await signUp(s);
    const theirs = await tusCreated(victim.token, 'victim_sample');
    const mine = await tusCreated(attacker.token, 'attacker_sample');
    const own = mine.files[0]!.slot;
    const other = theirs.files[0]!.slot;
    const tusHeaders = { 'access-token': attacker.token, 'tus-resumable': '1.0.0' };
    const urls = [
      `${FILES_API.tus}/${own}?x=/${other}`,
      `${FILES_API.tus}/${own}?x=${encodeURIComponent('/' + other)}`,
      `${FILES_API.tus}/${own}/${other}`,
      `${FILES_API.tus}/${own}/%2F${other}`,
    ];
    for (const u of urls) {
      const patch = await fetch(`${s.url}${u}`, {
        method: 'PATCH',
        headers: { ...tusHeaders, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(64).fill(65),
      });
      expect(patch.status, `PATCH ${u}`).toBeGreaterThanOrEqual(400);
      const head = await fetch(`${s.url}${u}`, { method: 'HEAD', headers: tusHeaders });
      expect(head.headers.get('upload-length'), `HEAD ${u}`).toBeNull();
      const del = await fetch(`${s.url}${u}`, { method: 'DELETE', headers: tusHeaders });
      expect(del.status, `DELETE ${u}`).toBeGreaterThanOrEqual(400);
    }
    // The victim's file is untouched: offset 0, still there.
    const head = await fetch(`${s.url}${FILES_API.tus}/${other}`, {
      method: 'HEAD',
      headers: { 'access-token': victim.token, 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    // The attacker's own slot still works without the trick.
    const ownHead = await fetch(`${s.url}${FILES_API.tus}/${own}`, { method: 'HEAD', headers: tusHeaders });
    expect(ownHead.status).toBe(200);
  });

  it('5. NUL bytes and unpaired surrogates in body, query and path → 400 with the translated validation message', async () => {
    const u = await signUp(s);
    const cases: { method: 'GET' | 'POST' | 'PUT'; url: string; body?: string }[] = [
      { method: 'GET', url: `${FILES_API.uploads}?search=a%00b` },
      { method: 'GET', url: `${FILES_API.upload('a\u0000b')}` },
      { method: 'GET', url: `${accountPaths.checkUsername}?value=ab%00cd` },
      {
        method: 'POST',
        url: FILES_API.uploads,
        body: '{"sampleName":"a\\u0000b","kind":"matrix","files":[{"name":"m.mtx","size":1,"role":"data"}]}',
      },
      {
        method: 'POST',
        url: FILES_API.uploads,
        body: '{"sampleName":"a\\ud800b","kind":"matrix","files":[{"name":"m.mtx","size":1,"role":"data"}]}',
      },
      {
        method: 'POST',
        url: FILES_API.uploads,
        body: '{"sampleName":"ok_name","kind":"matrix","files":[{"name":"m\\udc00.mtx","size":1,"role":"data"}]}',
      },
    ];
    for (const c of cases) {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const r = await s.app.inject({
          method: c.method,
          url: c.url,
          headers: {
            'access-token': u.token,
            'x-lang': lang,
            ...(c.body ? { 'content-type': 'application/json' } : {}),
          },
          payload: c.body,
        });
        expect(r.statusCode, `${c.method} ${c.url} ${c.body ?? ''}`).toBe(400);
        const msg = r.json().msg as string;
        expect(msg).toMatch(lang === 'en-US' ? /control character|invalid characters/i : /字符/);
      }
    }
  });

  it('6. query tokens only where a header is impossible; credentials redacted and requests logged at debug', async () => {
    const u = await signUp(s);
    const info = await s.request('GET', `${accountPaths.info}?token=${encodeURIComponent(u.token)}`);
    expect(info.status).toBe(401);
    const uploads = await s.request('GET', `${FILES_API.uploads}?token=${encodeURIComponent(u.token)}`);
    expect(uploads.status).toBe(401);
    expect((await s.request('GET', accountPaths.info, { token: u.token })).status).toBe(200);

    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logged = await buildApp(s.ctx, { logStream: stream, logLevel: 'debug' });
    try {
      const secret = u.token;
      await logged.inject({
        method: 'GET',
        url: `${accountPaths.info}?token=${secret}&x=1`,
        headers: { 'access-token': secret },
      });
      await logged.inject({
        method: 'GET',
        url: `/api/user_datasets/nothing/h5ad?token=${secret}`,
        headers: { authorization: `Bearer ${secret}` },
      });
      await logged.inject({
        method: 'POST',
        url: accountPaths.login,
        payload: { username: u.username, password: u.password },
      });
    } finally {
      await logged.close();
    }
    const text = lines.join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(u.token);
    expect(text).not.toContain(u.password);
    const reqLines = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => /incoming request|request completed/.test(l.msg));
    expect(reqLines.length).toBeGreaterThan(0);
    expect(reqLines.every((l) => l.level === 20)).toBe(true);
  });

  it('8. the account lock is a sliding 15-minute window (not a fixed clock window)', async () => {
    let offset = 0;
    // Start 10 s before a 15-minute clock boundary: a fixed window would reset 10 s later.
    const period = 15 * 60_000;
    offset = period - (Date.now() % period) - 10_000;
    await wireAccounts(s.ctx, { now: () => new Date(Date.now() + offset) });
    try {
      const u = await signUp(s);
      for (let i = 0; i < 5; i++)
        expect(
          (
            await from(`10.1.0.${i + 1}`, 'POST', accountPaths.login, {
              username: u.username,
              password: 'Wrong123',
            })
          ).status,
        ).toBe(400);
      offset += 30_000;
      const after30s = await from('10.1.1.1', 'POST', accountPaths.login, {
        username: u.username,
        password: u.password,
      });
      expect(after30s.status).toBe(429);
      offset += 14 * 60_000;
      const after14m = await from('10.1.1.1', 'POST', accountPaths.login, {
        username: u.username,
        password: u.password,
      });
      expect(after14m.status).toBe(429);
      expect(after14m.body.data.seconds).toBeLessThanOrEqual(60);
      offset += 61_000;
      const after15m = await from('10.1.1.1', 'POST', accountPaths.login, {
        username: u.username,
        password: u.password,
      });
      expect(after15m.status).toBe(200);
    } finally {
      await wireAccounts(s.ctx);
    }
  });

  it('9. check_username / check_email are rate-limited per IP; the reset answer is the same for known and unknown e-mails', async () => {
    let last = 0;
    for (let i = 0; i < 61; i++)
      last = (await from('10.7.7.7', 'GET', `${accountPaths.checkUsername}?value=probe${i}`)).status;
    expect(last).toBe(429);
    let lastEmail = 0;
    for (let i = 0; i < 61; i++)
      lastEmail = (await from('10.7.7.8', 'GET', `${accountPaths.checkEmail}?value=probe${i}@example.org`))
        .status;
    expect(lastEmail).toBe(429);
    // Another IP is not affected.
    expect((await from('10.7.7.9', 'GET', `${accountPaths.checkUsername}?value=probe`)).status).toBe(200);

    const known = await signUp(s);
    const a = await from('10.7.8.1', 'POST', accountPaths.sendMessage, {
      email: known.email,
      purpose: 'reset',
    });
    const b = await from('10.7.8.1', 'POST', accountPaths.sendMessage, {
      email: 'nobody_at_all@example.org',
      purpose: 'reset',
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body.msg.replace('nobody_at_all@example.org', 'X')).toBe(a.body.msg.replace(known.email, 'X'));
    expect(b.body.data).toEqual(a.body.data);
    // A second request within the resend wait answers the same way too.
    const a2 = await from('10.7.8.1', 'POST', accountPaths.sendMessage, {
      email: known.email,
      purpose: 'reset',
    });
    const b2 = await from('10.7.8.1', 'POST', accountPaths.sendMessage, {
      email: 'nobody_at_all@example.org',
      purpose: 'reset',
    });
    expect(b2.status).toBe(a2.status);
    // Resetting with a guessed code for an unknown address looks like a wrong code.
    const guess = await from('10.7.8.2', 'POST', accountPaths.forgotPassword, {
      email: 'nobody_at_all@example.org',
      code: '123456',
      password: 'NewPass99',
      repeatPassword: 'NewPass99',
    });
    const guessKnown = await from('10.7.8.2', 'POST', accountPaths.forgotPassword, {
      email: known.email,
      code: '000000',
      password: 'NewPass99',
      repeatPassword: 'NewPass99',
    });
    expect(guess.status).toBe(guessKnown.status);
    expect(guess.body.msg).toBe(guessKnown.body.msg);
    await logIn(s, known.username, known.password);
  });

  it('10. authentication before validation: anonymous calls with a bad body get 401', async () => {
    const r = await s.request('POST', FILES_API.uploads, { body: { nonsense: true } });
    expect(r.status).toBe(401);
    const bad = await s.app.inject({
      method: 'POST',
      url: FILES_API.uploads,
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(401);
    const q = await s.request('GET', `${FILES_API.uploads}?pageSize=banana`);
    expect(q.status).toBe(401);
  });

  it('security headers on every answer (CSP with frame-ancestors, nosniff, no referrer); HSTS only over TLS', async () => {
    for (const url of ['/api/health', accountPaths.info, '/']) {
      const r = await s.app.inject({ method: 'GET', url });
      expect(String(r.headers['content-security-policy']), url).toMatch(
        /default-src 'self'.*frame-ancestors 'none'/,
      );
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
    const proxied = await createTestServer({ TRUST_PROXY: 'true' });
    try {
      const tls = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(tls.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const plain = await proxied.app.inject({ method: 'GET', url: '/api/health' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it('request body limits per route: small for accounts and uploads, larger where cell lists or drawings travel', async () => {
    const u = await signUp(s);
    const big = (n: number) => JSON.stringify({ pad: 'x'.repeat(n) });
    const login = await s.app.inject({
      method: 'POST',
      url: accountPaths.login,
      headers: { 'content-type': 'application/json' },
      payload: big(100 * 1024),
    });
    expect(login.statusCode).toBe(413);
    const announce = await s.app.inject({
      method: 'POST',
      url: FILES_API.uploads,
      headers: { 'content-type': 'application/json', 'access-token': u.token },
      payload: big(2 * 1024 * 1024),
    });
    expect(announce.statusCode).toBe(413);
    const drawing = await s.app.inject({
      method: 'PUT',
      url: '/api/user/drawings/app1',
      headers: { 'content-type': 'application/json', 'access-token': u.token },
      payload: JSON.stringify({
        elements: [],
        appState: {},
        files: { f: { dataURL: 'data:image/png;base64,' + 'A'.repeat(2 * 1024 * 1024) } },
      }),
    });
    expect(drawing.statusCode).not.toBe(413);
  });
});
