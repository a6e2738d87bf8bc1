import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { downloadsRepo } from '../../db/repos/downloads';

/**
 * Signed, time-limited download links: sig = HMAC-SHA256(secret, "<requestId>.<exp>") in
 * base64url, `exp` in Unix seconds. The secret is generated once per installation and kept in
 * `server_secrets`, so every API process verifies the links of every other.
 */
let cached: { db: unknown; secret: string } | undefined;

async function secretOf(ctx: AppContext): Promise<string> {
  if (cached?.db === ctx.db) return cached.secret;
  const secret = await downloadsRepo.secret(ctx.db, 'download-links', randomBytes(32).toString('base64url'));
  cached = { db: ctx.db, secret };
  return secret;
}

const mac = (secret: string, id: string, exp: number) =>
  createHmac('sha256', secret).update(`${id}.${exp}`).digest('base64url');

export async function signLink(
  ctx: AppContext,
  id: string,
  expiresAt: Date,
): Promise<{ exp: number; sig: string }> {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return { exp, sig: mac(await secretOf(ctx), id, exp) };
}

/** 'ok', 'tampered' (signature does not match) or 'expired' (valid signature, past exp). */
export async function checkLink(
  ctx: AppContext,
  id: string,
  exp: number,
  sig: string,
  now = new Date(),
): Promise<'ok' | 'tampered' | 'expired'> {
  const want = Buffer.from(mac(await secretOf(ctx), id, exp));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'tampered';
  return exp * 1000 <= now.getTime() ? 'expired' : 'ok';
}
