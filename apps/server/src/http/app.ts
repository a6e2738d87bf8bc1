import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { registerAuth } from './auth';
import { registerErrorHandler } from './error-handler';
import { registerMetrics } from './metrics';
import { DebugRequestLogs, loggerOptions } from './logging';
import { registerRequestStringGuard } from './request-strings';
import { DEFAULT_BODY_LIMIT, registerBodyLimits, registerSecurityHeaders } from './security-headers';
import { routeModules } from './routes';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Builds the Fastify app: zod validation/serialization, OpenAPI at /api/openapi.json with the UI
 * at /api/docs, the auth hook, every route module, and (when built) the web app with an SPA
 * fallback for non-API paths.
 */
export async function buildApp(
  ctx: AppContext,
  opts: { logger?: boolean; logStream?: NodeJS.WritableStream; logLevel?: string } = {},
): Promise<ZodApp> {
  const app = Fastify({
    logger:
      opts.logger === false ? false : loggerOptions(opts.logLevel ?? ctx.config.logLevel, opts.logStream),
    // Requests are logged at debug (info keeps errors, job events and the [outbox] line readable).
    logController: new DebugRequestLogs(),
    trustProxy: ctx.config.trustProxy ? parseTrust(ctx.config.trustProxy) : false,
    bodyLimit: DEFAULT_BODY_LIMIT, // per route: registerBodyLimits
    requestTimeout: 600_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const webDist = ctx.config.webDistDir ?? defaultWebDist;
  const serveWeb = existsSync(path.join(webDist, 'index.html'));
  registerErrorHandler(app, { spaFallback: serveWeb });
  registerBodyLimits(app);
  registerSecurityHeaders(app);
  registerMetrics(app, ctx); // /metrics, request latency and trace spans (issue 34)

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'CellCloud API',
        description: 'Single-cell analysis platform API (envelope: { code, msg, data })',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'access-token' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerAuth(app, ctx);
  registerRequestStringGuard(app);
  for (const mod of routeModules) await mod(app, ctx);

  if (serveWeb) {
    // Static files of the built web app; unknown non-API paths fall back to index.html (above).
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.type('text/html').sendFile('index.html'));
  }
  return app;
}

/** TRUST_PROXY: 'true' (trust every hop) or a comma-separated list of proxy addresses/CIDRs. */
function parseTrust(v: string): boolean | string {
  return v === 'true' ? true : v;
}
