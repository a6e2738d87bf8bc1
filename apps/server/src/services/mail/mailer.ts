import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { mailRepo } from '../../db/repos/mail';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra line printed to stdout when no SMTP server is configured (e.g. the outbox code line). */
  logLine?: string;
  replyTo?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'log';
  /** Sends (SMTP) or logs (outbox) a mail and records it in `mail_outbox`. Throws on SMTP failure. */
  send(m: MailMessage): Promise<void>;
}

/**
 * E-mail delivery. With SMTP_HOST set, mails go through nodemailer; otherwise (the embedded
 * default) they are recorded in the `mail_outbox` table and a line is printed to stdout so a
 * person on a fresh machine (and the browser tests) can read codes.
 */
export function createMailer(
  config: Pick<Config, 'smtp' | 'mailFrom'>,
  db: Db,
  print: (line: string) => void = (l) => console.log(l),
): Mailer {
  const smtp = config.smtp;
  let transporter: Transporter | undefined;
  if (smtp) {
    transporter = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
      // A local relay often has a self-signed certificate; STARTTLS is still used when offered.
      tls: { rejectUnauthorized: false },
    });
  }
  return {
    transport: transporter ? 'smtp' : 'log',
    async send(m) {
      if (!transporter) {
        await mailRepo.record(db, { to: m.to, subject: m.subject, body: m.text, transport: 'log' });
        print(m.logLine ?? `[outbox] to=${m.to} subject=${m.subject}`);
        return;
      }
      try {
        await transporter.sendMail({
          from: config.mailFrom,
          to: m.to,
          subject: m.subject,
          text: m.text,
          replyTo: m.replyTo,
        });
        await mailRepo.record(db, { to: m.to, subject: m.subject, body: m.text, transport: 'smtp' });
      } catch (e) {
        await mailRepo.record(db, {
          to: m.to,
          subject: m.subject,
          body: m.text,
          transport: 'smtp',
          error: (e as Error).message,
        });
        throw e;
      }
    },
  };
}
