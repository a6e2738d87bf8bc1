import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AppContext } from '../context';
import { refreshGauges } from './gauges';
import { registry } from './metrics';

/**
 * `/metrics` of a worker-only process (`npm run worker`, which serves no API): the job series it
 * ran (durations, outcomes, queue wait, child peak memory) exist only in its own registry, so it
 * serves them on WORKER_METRICS_PORT (unset = not served) at HOST, behind METRICS_TOKEN like the
 * API's. Prometheus scrapes every worker (Kubernetes: a pod monitor on this port). The same port
 * answers the worker's probes without a token: `/healthz` (alive) and `/readyz` (503 while the
 * SIGTERM drain runs).
 */
export async function serveWorkerMetrics(ctx: AppContext): Promise<Server | undefined> {
  const port = ctx.config.metrics.workerPort;
  if (port === undefined) return undefined;
  const token = ctx.config.metrics.token;
  const server = createServer((req, res) => {
    const route = (req.url ?? '').split('?')[0];
    // probes (no token): alive while the process serves; ready while it takes jobs (not draining)
    if (req.method === 'GET' && route === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (req.method === 'GET' && route === '/readyz') {
      const draining = ctx.queue.draining;
      res
        .writeHead(draining ? 503 : 200, { 'content-type': 'text/plain' })
        .end(draining ? 'draining' : 'ready');
      return;
    }
    if (req.method !== 'GET' || route !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    void refreshGauges(ctx)
      .then(() => registry.metrics())
      .then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ctx.config.host, () => resolve());
  });
  server.unref();
  return server;
}

/** `Authorization: Bearer <token>` equals the configured token (constant-time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const got = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return got.length === want.length && timingSafeEqual(got, want);
}
