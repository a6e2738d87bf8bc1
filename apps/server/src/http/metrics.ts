import { context, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { refreshGauges } from '../telemetry/gauges';
import { httpDuration, registry } from '../telemetry/metrics';
import { contextFrom, endSpan, initTracing, tracer, tracingEnabled } from '../telemetry/tracing';
import { bearerMatches } from '../telemetry/worker-metrics';

export const METRICS_PATH = '/metrics';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's trace span and the context it runs in (src/telemetry/tracing.ts). */
    traceSpan?: Span;
    traceContext?: Context;
  }
}

/** The route pattern a request matched (`/api/jobs/:id`), never its raw URL: bounded label values. */
const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? 'unmatched';

/**
 * Observability of the HTTP side (issue 34): a latency histogram by route pattern for every
 * request, a server span per request whose context the handler runs in (so a job it queues
 * carries the trace on), and `GET /metrics` in Prometheus text format — open by default,
 * `Authorization: Bearer <METRICS_TOKEN>` when that setting is given.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  initTracing(ctx.config.otel);
  app.addHook('onRequest', (req, _reply, done) => {
    if (!tracingEnabled()) return done();
    const parent = contextFrom(req.headers as Record<string, unknown>);
    const span = tracer().startSpan(
      `${req.method} ${routeOf(req)}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'http.route': routeOf(req) },
      },
      parent,
    );
    req.traceSpan = span;
    req.traceContext = trace.setSpan(parent, span);
    context.with(req.traceContext, done);
  });
  // the body is read from socket events, outside the context entered above: enter it again
  app.addHook('preHandler', (req, _reply, done) => {
    if (!req.traceContext) return done();
    context.with(req.traceContext, done);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = routeOf(req);
    httpDuration.observe(
      { method: req.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (req.traceSpan) {
      req.traceSpan.setAttribute('http.response.status_code', reply.statusCode);
      endSpan(req.traceSpan, reply.statusCode >= 500 ? new Error(`HTTP ${reply.statusCode}`) : undefined);
    }
    done();
  });

  app.get(METRICS_PATH, { schema: { hide: true } }, async (req, reply) => {
    const want = ctx.config.metrics.token;
    if (want && !bearerMatches(req.headers.authorization, want)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('UNAUTHENTICATED');
    }
    await refreshGauges(ctx);
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
