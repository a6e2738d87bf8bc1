import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { downloadsRepo } from '../../db/repos/downloads';
import { sessionsRepo } from '../../db/repos/sessions';
import { registerMessages } from '../../i18n/translate';
import { hashToken } from '../accounts/tokens';

/**
 * Download links tied to the session that asked for them, short-lived and revocable (issue 34
 * probe: they were bearer links valid for the whole 7-day availability).
 * sig = HMAC-SHA256(secret, "<requestId>.<exp>.<sid>") in base64url, `exp` in Unix seconds — at
 * most DOWNLOAD_LINK_MINUTES ahead (and never past the download's own expiry) — and `sid` the
 * session key (sha256 of the access token, as `sessions` stores it; the token itself never
 * appears in a URL). A link works only while that session is open: signing out, an expired or
 * revoked token, or a disabled account ends every link it was given. The secret is generated
 * once per installation and kept in `server_secrets`, so every API process verifies the links of
 * every other.
 */
let cached: { db: unknown; secret: string } | undefined;

async function secretOf(ctx: AppContext): Promise<string> {
  if (cached?.db === ctx.db) return cached.secret;
  const secret = await downloadsRepo.secret(ctx.db, 'download-links', randomBytes(32).toString('base64url'));
  cached = { db: ctx.db, secret };
  return secret;
}

const mac = (secret: string, id: string, exp: number, sid: string) =>
  createHmac('sha256', secret).update(`${id}.${exp}.${sid}`).digest('base64url');

/** The session of the request being served (set by the download routes around their use cases). */
const linkSession = new AsyncLocalStorage<string>();

/** Runs `fn` with the links it signs tied to the session of `token` (the request's access token). */
export function withLinkSession<T>(token: string | undefined, fn: () => T): T {
  return token ? linkSession.run(hashToken(token), fn) : fn();
}

/** A link for the current session, or undefined outside one (no link is given without a session). */
export async function signLink(
  ctx: AppContext,
  id: string,
  expiresAt: Date,
  now = new Date(),
): Promise<{ exp: number; sig: string; sid: string } | undefined> {
  const sid = linkSession.getStore();
  if (!sid) return undefined;
  const until = Math.min(expiresAt.getTime(), now.getTime() + ctx.config.downloadLinkMinutes * 60_000);
  const exp = Math.floor(until / 1000);
  return { exp, sig: mac(await secretOf(ctx), id, exp, sid), sid };
}

export type LinkVerdict = 'ok' | 'tampered' | 'expired' | 'stale' | 'revoked';

/**
 * 'ok'; 'tampered' (signature does not match); 'expired' (valid signature, past exp and past the
 * download's availability); 'stale' (past exp while the download is still available: a new link
 * is one page load away); 'revoked' (the session it was given to is over, or belongs to neither
 * the request's owner nor an administrator).
 */
export async function checkLink(
  ctx: AppContext,
  id: string,
  exp: number,
  sig: string,
  sid: string,
  now = new Date(),
): Promise<LinkVerdict> {
  const want = Buffer.from(mac(await secretOf(ctx), id, exp, sid));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'tampered';
  if (exp * 1000 <= now.getTime()) {
    const r = await downloadsRepo.get(ctx.db, id);
    return r?.expires_at && r.expires_at.getTime() > now.getTime() ? 'stale' : 'expired';
  }
  const session = await sessionsRepo.withUser(ctx.db, sid);
  const live =
    session && !session.revoked_at && !session.disabled_at && session.expires_at.getTime() > now.getTime();
  if (!live) return 'revoked';
  const r = await downloadsRepo.get(ctx.db, id);
  return r && (r.user_id === session.user_id || session.is_admin) ? 'ok' : 'revoked';
}

/** The message key of a refused link. */
export const LINK_MESSAGE: Record<Exclude<LinkVerdict, 'ok'>, string> = {
  tampered: 'downloads.link.invalid',
  expired: 'downloads.link.expired',
  stale: 'downloads.link.stale',
  revoked: 'downloads.link.revoked',
};

registerMessages({
  'en-US': {
    'downloads.link.stale':
      'This download link is no longer valid (links last a short while). Open Requested Downloads again and use the new link shown there.',
    'downloads.link.revoked':
      'This download link belonged to a session that has ended (signed out or expired). Sign in, open Requested Downloads and use the link shown there.',
  },
  'zh-CN': {
    'downloads.link.stale':
      '该下载链接已失效（链接仅在短时间内有效）。请重新打开“已申请的下载”并使用其中显示的新链接。',
    'downloads.link.revoked':
      '该下载链接所属的登录会话已结束（已退出或已过期）。请登录后打开“已申请的下载”并使用其中显示的链接。',
  },
});
