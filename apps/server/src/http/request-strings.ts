import type { FastifyInstance } from 'fastify';
import '../i18n/security';
import { AppError } from './errors';

/** A NUL character or a UTF-16 surrogate without its partner (PostgreSQL refuses both in text). */
const BAD = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string (or object key) with a bad character, or undefined. */
export function findBadString(value: unknown, where: string, depth = 0): string | undefined {
  if (typeof value === 'string') return BAD.test(value) ? where : undefined;
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  if (ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findBadString(value[i], `${where}.${i}`, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (BAD.test(k)) return `${where}.${k.replace(BAD, '?')}`;
    const hit = findBadString(v, `${where}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Refuses, before schema validation of every route, any string of the params, query or body that
 * holds a NUL byte or an unpaired surrogate: 400 with the translated validation message (they
 * would otherwise reach PostgreSQL and fail there with 500).
 */
export function registerRequestStringGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const hit =
      findBadString(req.params, 'params') ??
      findBadString(req.query, 'query') ??
      (typeof req.body === 'string'
        ? BAD.test(req.body)
          ? 'body'
          : undefined
        : findBadString(req.body, 'body'));
    if (hit) throw new AppError('VALIDATION_FAILED', { field: hit }, 'request.badCharacters');
  });
}
