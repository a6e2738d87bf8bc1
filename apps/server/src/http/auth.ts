import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, AuthUser } from '../context';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Require a valid access token. */
    auth?: boolean;
    /** Require this permission key (implies auth). */
    privilege?: string;
    /** Admin only (implies auth). */
    admin?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export const TOKEN_HEADER = 'access-token';

/** Reads the access token of a request: the header, or `?token=` for blob downloads (SPEC §7). */
export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers[TOKEN_HEADER];
  if (typeof h === 'string' && h) return h;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/**
 * Resolves `request.user` for every request and enforces the route's `auth` / `privilege` /
 * `admin` config: no or unknown token → 401 UNAUTHENTICATED, expired/revoked → 401
 * LOGIN_EXPIRED, privilege disabled/hidden/missing → 403 PRIVILEGE_REQUIRED.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);
  app.addHook('preHandler', async (req) => {
    const cfg = req.routeOptions.config ?? {};
    const needs = cfg.auth || cfg.privilege || cfg.admin;
    const token = tokenOf(req);
    if (!token) {
      if (needs) throw new AppError('UNAUTHENTICATED');
      return;
    }
    const r = await ctx.auth.resolve(token);
    if (r === 'expired') {
      if (needs) throw new AppError('LOGIN_EXPIRED');
      return;
    }
    if (!r) {
      if (needs) throw new AppError('UNAUTHENTICATED');
      return;
    }
    req.user = r;
    if (cfg.admin && !r.isAdmin) throw new AppError('FORBIDDEN');
    if (cfg.privilege && (r.blockedPrivileges.has(cfg.privilege) || !r.privileges.has(cfg.privilege))) {
      throw new AppError('PRIVILEGE_REQUIRED');
    }
  });
}

/** The signed-in user of an authenticated route (throws if the route forgot `auth: true`). */
export function userOf(req: FastifyRequest): AuthUser {
  if (!req.user) throw new AppError('UNAUTHENTICATED');
  return req.user;
}
