import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Content-Security-Policy of the web app (issue 12). The app loads its own scripts, module
 * workers and assets only; antd and Excalidraw inject styles at run time ('unsafe-inline' styles
 * only — never scripts); charts export through data:/blob: images; the API is same-origin
 * (fetch, EventSource). Nothing may frame the app. 'unsafe-eval': the WebGL scatter
 * (regl-scatterplot → regl) compiles its draw commands with the Function constructor; without it
 * the explorer's WebGL renderer cannot start (no inline scripts are allowed either way).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The Swagger UI page ships inline scripts: it gets a policy of its own. */
const DOCS_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

/**
 * Security headers on every answer: CSP with frame-ancestors, nosniff, no referrer (download
 * links carry a token), no framing, HSTS when the request came over TLS (directly or through a
 * trusted proxy's X-Forwarded-Proto).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header(
      'content-security-policy',
      req.url.startsWith('/api/docs') ? DOCS_POLICY : CONTENT_SECURITY_POLICY,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (req.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}

/** Default request body limit; routes that take more say so (or get a prefix rule below). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Body limits by path prefix for routes that set none themselves (first match wins). */
const BODY_LIMITS: [RegExp, number][] = [
  [/^\/api\/database-api\/celeLens\/account\//, 64 * 1024],
  [/^\/api\/user\/drawings\//, 25 * 1024 * 1024],
  // cell index lists of subsets / merges / gene queries of up to a few million cells
  [/^\/api\/user_datasets\//, 32 * 1024 * 1024],
];

/**
 * Gives every route a body limit (its own, else the prefix rule, else DEFAULT_BODY_LIMIT) and
 * marks authenticated routes (`config.auth` / `privilege` / `admin`) with the access-token
 * security requirement in the OpenAPI document, so the document says which calls are public
 * (the authorization matrix test relies on it).
 */
export function registerBodyLimits(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit === undefined)
      route.bodyLimit = BODY_LIMITS.find(([re]) => re.test(route.url))?.[1] ?? DEFAULT_BODY_LIMIT;
    const cfg = (route.config ?? {}) as { auth?: boolean; privilege?: string; admin?: boolean };
    const schema = route.schema as (Record<string, unknown> & { security?: unknown }) | undefined;
    if ((cfg.auth || cfg.privilege || cfg.admin) && schema && !schema.security)
      schema.security = [{ accessToken: [] }];
  });
}
