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
    /**
     * Also accept the token as `?token=` — only for requests a browser cannot send with a header
     * (EventSource, plain download links, the svg-to-tiff blob call). Everywhere else a query
     * token is ignored (so it is not an accepted credential in URLs that end up in logs/history).
     */
    queryToken?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export const TOKEN_HEADER = 'access-token';

/**
 * Reads the access token of a request: the header, or `?token=` on routes configured with
 * `queryToken` (SSE, blob downloads: docs/product/api.md#access-token).
 */
export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers[TOKEN_HEADER];
  if (typeof h === 'string' && h) return h;
  if (!req.routeOptions.config?.queryToken) return undefined;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/**
 * Resolves `request.user` for every request and enforces the route's `auth` / `privilege` /
 * `admin` config: no or unknown token → 401 UNAUTHENTICATED, expired/revoked → 401
 * LOGIN_EXPIRED, privilege disabled/hidden/missing → 403 PRIVILEGE_REQUIRED. Runs at
 * `onRequest`, before the body is read and validated: an anonymous call with a bad body is 401.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
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
