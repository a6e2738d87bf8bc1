import { errorStatus, pickLocale, type Locale } from '@cellcloud/contracts';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasMessage, translate } from '../i18n/translate';
import { AppError } from './errors';

/** The request's language: `x-lang` header, then Accept-Language (zh → zh-CN, else en-US). */
export function localeOf(req: FastifyRequest): Locale {
  const x = req.headers['x-lang'];
  return pickLocale((typeof x === 'string' && x) || req.headers['accept-language']);
}

/**
 * Maps every error to the envelope with a translated message (docs/product/errors.md#messages):
 * AppError → its status; zod/fastify validation → 400 with the first problem (a message key in
 * the schema is translated); rate limit → 429; anything else → 500 maintenance message.
 */
export function registerErrorHandler(app: FastifyInstance, opts: { spaFallback?: boolean } = {}) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const locale = localeOf(req);
    if (err instanceof AppError) {
      const msg = translate(locale, err.messageKey ?? err.code, err.params);
      return reply
        .status(err.status)
        .send({ code: err.status, msg, data: { error: err.code, ...publicParams(err.params) } });
    }
    const fe = err as FastifyError & {
      validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[];
    };
    if (fe.validation?.length) {
      const first = fe.validation[0]!;
      const raw = first.message ?? 'invalid';
      const where = (
        first.instancePath ??
        (first.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.') ??
        ''
      )
        .replace(/^\//, '')
        .replace(/\//g, '.');
      const text = hasMessage(raw) ? translate(locale, raw) : raw;
      const detail = where ? `${where}: ${text}` : text;
      const msg = hasMessage(raw) ? text : translate(locale, 'VALIDATION_FAILED', { detail });
      return reply
        .status(400)
        .send({ code: 400, msg, data: { error: 'VALIDATION_FAILED', field: where || undefined, key: raw } });
    }
    if (fe.statusCode === 429) {
      const seconds = Number(reply.getHeader('retry-after')) || 60;
      return reply.status(429).send({
        code: 429,
        msg: translate(locale, 'RATE_LIMITED', { seconds }),
        data: { error: 'RATE_LIMITED' },
      });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const code =
        fe.statusCode === 404
          ? 'NOT_FOUND'
          : fe.statusCode === 403
            ? 'FORBIDDEN'
            : fe.statusCode === 401
              ? 'UNAUTHENTICATED'
              : 'VALIDATION_FAILED';
      const msg = translate(locale, code, { detail: fe.message });
      return reply.status(fe.statusCode).send({ code: fe.statusCode, msg, data: { error: code } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(errorStatus.INTERNAL)
      .send({ code: 500, msg: translate(locale, 'INTERNAL'), data: { error: 'INTERNAL' } });
  });

  app.setNotFoundHandler((req, reply) => {
    // SPA fallback: a GET outside /api that is not a static file gets the web app's index.html.
    if (opts.spaFallback && req.method === 'GET' && !req.url.startsWith('/api')) {
      // status 200: the not-found handler would otherwise send the page with 404
      return reply.code(200).type('text/html').sendFile('index.html');
    }
    const locale = localeOf(req);
    return reply
      .status(404)
      .send({ code: 404, msg: translate(locale, 'NOT_FOUND'), data: { error: 'NOT_FOUND' } });
  });
}

/** Only plain scalar params are echoed to the client (never internal objects). */
function publicParams(p: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}
