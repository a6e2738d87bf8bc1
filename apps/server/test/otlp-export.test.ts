import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushTraces, traceCarrier, tracingEnabled } from '../src/telemetry/tracing';
import { sharedData } from '@cellcloud/testkit';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * Issue 34: traces are exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is configured,
 * and nothing is registered otherwise (this file runs in its own process, so the first test sees
 * a process that never configured tracing).
 */
describe(`OTLP export on ${TEST_DB}`, () => {
  let collector: Server;
  let endpoint: string;
  const received: { path: string; type: string; body: string }[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const a = collector.address();
    endpoint = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(() => collector?.close());

  it('without an endpoint nothing is registered: no trace context, no export', async () => {
    const s = await createTestServer();
    try {
      expect((await s.request('GET', '/api/health')).status).toBe(200);
      expect(tracingEnabled()).toBe(false);
      expect(traceCarrier()).toEqual({});
    } finally {
      await s.close();
    }
    expect(received).toHaveLength(0);
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT the spans of requests, jobs and the child process reach the collector at /v1/traces', async () => {
    let s: TestServer | undefined;
    try {
      s = await createTestServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'cellcloud-test',
      });
      expect(tracingEnabled()).toBe(true);
      expect((await s.request('GET', '/api/health')).status).toBe(200);
      await flushTraces();
      const traces = received.filter((r) => r.path === '/v1/traces');
      expect(traces.length).toBeGreaterThanOrEqual(1);
      const all = traces.map((t) => t.body).join('\n');
      expect(all).toContain('GET /api/health');
      expect(all).toContain('cellcloud-test');

      // a parse: the worker's spans, and the child process's own span continuing the trace it was given
      await s.listen();
      const { token } = await testUser(s);
      const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) =>
        fileFrom(sharedData(`pbmc3k/10x/${f}`)!),
      );
      const row = await uploadSample(s, token, 'otlp_pbmc', files);
      expect((await waitParsed(s, token, row.id)).state).toBe('completed');
      await flushTraces();
      const after = received.map((t) => t.body).join('\n');
      expect(after).toContain('job dataset.ingest');
      expect(after).toContain('child dataset.ingest');
      expect(after).toContain('child.run dataset.ingest');
    } finally {
      await s?.close();
    }
  });
});
