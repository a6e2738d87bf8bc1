import type { ContactUsRequest } from '@cellcloud/contracts';
import { mailRepo } from '../../db/repos/mail';
import { translate } from '../../i18n/translate';
import { ACCOUNT_LIMITS } from '../rate-limit';
import type { AccountDeps, RequestMeta } from './deps';

/**
 * POST /account/contactUS: stores the message; with SMTP and SUPPORT_EMAIL configured it is
 * also mailed to the support address (reply-to = the sender). A mail failure is logged, the
 * message stays stored.
 */
export async function contactUs(
  d: AccountDeps,
  input: ContactUsRequest,
  userId: string | null,
  meta: RequestMeta,
  log: (msg: string) => void,
): Promise<{ id: string }> {
  await d.limiter.consume('contact-ip', meta.ip, ACCOUNT_LIMITS.contactPerIp);
  const id = await mailRepo.insertContact(d.db, { userId, ...input, ip: meta.ip });
  const support = d.config.supportEmail;
  if (support && d.mailer.transport === 'smtp') {
    try {
      await d.mailer.send({
        to: support,
        replyTo: input.email,
        subject: translate('en-US', 'mail.contact.subject', { subject: input.subject }),
        text: `From: ${input.name} <${input.email}>\nUser id: ${userId ?? '-'}\nIP: ${meta.ip}\n\n${input.message}`,
      });
    } catch (e) {
      log(`contact message ${id} stored but not mailed: ${(e as Error).message}`);
    }
  }
  return { id };
}
