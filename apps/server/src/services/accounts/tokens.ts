import { createHash, randomBytes } from 'node:crypto';
import type { AuthResolver } from '../../context';
import type { Db, Queryable } from '../../db/client';
import { sessionsRepo } from '../../db/repos/sessions';
import { privilegesOfPlan } from '../plans/user-privileges';

/** Tokens are opaque random strings; only their sha256 is stored. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(
  q: Queryable,
  s: { userId: string; now: Date; ttlMs: number; ip: string; userAgent: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sessionsRepo.insert(q, {
    tokenHash: hashToken(token),
    userId: s.userId,
    expiresAt: new Date(s.now.getTime() + s.ttlMs),
    ip: s.ip,
    userAgent: s.userAgent,
  });
  return token;
}

export async function revokeToken(db: Db, token: string, now: Date): Promise<void> {
  await sessionsRepo.revoke(db, hashToken(token), now);
}

/**
 * The AuthResolver of the app (ctx.auth): unknown token → null; revoked, expired, or the user
 * disabled → 'expired' (401 "Login status has expired"); else the user with the privileges of
 * its plan (held and enabled → `privileges`; disabled or hidden → `blockedPrivileges`).
 */
export function createAuthResolver(db: Db, now: () => Date): AuthResolver {
  return {
    async resolve(token) {
      const s = await sessionsRepo.withUser(db, hashToken(token));
      if (!s) return null;
      if (s.revoked_at || s.disabled_at || new Date(s.expires_at).getTime() <= now().getTime())
        return 'expired';
      const p = await privilegesOfPlan(db, s.plan_id);
      return {
        id: s.user_id,
        username: s.username,
        isAdmin: s.is_admin,
        privileges: p.allowed,
        blockedPrivileges: p.blocked,
      };
    },
  };
}
