import type { FastifyInstance } from 'fastify';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Parses urlencoded forms (docs/product/api.md#account-calls: several account calls post forms) into a plain object;
 * a repeated key keeps its last value. Registered once per app.
 */
export function registerFormBody(app: FastifyInstance) {
  if (app.hasContentTypeParser(FORM)) return;
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
