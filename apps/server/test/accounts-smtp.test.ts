import type { AddressInfo } from 'node:net';
import { accountPaths } from '@cellcloud/contracts';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { registration, uniq } from './support/accounts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** Delivery through a real SMTP server (the `smtp-server` package) listening on a local port. */
describe(`e-mail over SMTP on ${TEST_DB}`, () => {
  const inbox: Received[] = [];
  let smtp: SMTPServer;
  let s: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          inbox.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    s = await createTestServer({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'CellCloud <no-reply@cellcloud.test>',
      SUPPORT_EMAIL: 'support@cellcloud.test',
    });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  /** The body of a single-part message, decoded (base64 or quoted-printable soft breaks). */
  const text = (m: Received) => {
    const split = m.raw.indexOf('\r\n\r\n');
    const head = m.raw.slice(0, split);
    const body = m.raw.slice(split + 4);
    return /^Content-Transfer-Encoding: base64/im.test(head)
      ? Buffer.from(body, 'base64').toString('utf8')
      : body.replace(/=\r?\n/g, '');
  };

  it('delivers the code by SMTP (no outbox line) and the delivered code registers the account', async () => {
    const username = uniq('Smtp');
    const email = `${username}@example.org`;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const r = await s.request('POST', accountPaths.sendMessage, {
      body: { email, purpose: 'register' },
      form: true,
      lang: 'zh-CN',
    });
    log.mockRestore();
    expect(r.status).toBe(200);
    expect(log.mock.calls.some((c) => String(c[0]).includes('[outbox]'))).toBe(false);
    const mail = inbox.find((m) => m.to.includes(email))!;
    expect(mail.from).toBe('no-reply@cellcloud.test');
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m); // zh-CN subject, encoded
    expect(text(mail)).toMatch(/您的细胞云验证码为 \d{6}。/);
    const code = text(mail).match(/(\d{6})/)![1]!;
    const reg = await s.request('POST', accountPaths.register, {
      body: registration(username, email, code),
      form: true,
    });
    expect(reg.status).toBe(200);
    const rows = await s.ctx.db.query<{ transport: string; error: string | null }>(
      'SELECT transport, error FROM mail_outbox WHERE to_address = $1',
      [email],
    );
    expect(rows).toEqual([{ transport: 'smtp', error: null }]);
  });

  it('mails contact messages to the support address with the sender as reply-to', async () => {
    const r = await s.request('POST', accountPaths.contactUs, {
      body: {
        name: 'Grace',
        email: 'grace@example.org',
        subject: 'Quota',
        message: 'Can I get more storage?',
      },
    });
    expect(r.status).toBe(200);
    const mail = inbox.find((m) => m.to.includes('support@cellcloud.test'))!;
    expect(mail.raw).toMatch(/^Reply-To: grace@example.org/m);
    expect(mail.raw).toMatch(/^Subject: \[CellCloud contact\] Quota/m);
    expect(text(mail)).toContain('Can I get more storage?');
  });

  it('answers a clear error and records the failure when the SMTP server is down', async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    const email = `${uniq('down')}@example.org`;
    const r = await s.request('POST', accountPaths.sendMessage, {
      body: { email, purpose: 'register' },
      lang: 'en-US',
    });
    expect(r.status).toBe(409);
    expect(r.body.msg).toBe('The e-mail could not be sent. Please try again later or contact support.');
    const rows = await s.ctx.db.query<{ error: string | null }>(
      'SELECT error FROM mail_outbox WHERE to_address = $1',
      [email],
    );
    expect(rows[0]!.error).toBeTruthy();
  });
});
