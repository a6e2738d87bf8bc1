import { readFileSync } from 'node:fs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSpanExporter } from '../src/telemetry/tracing';
import { serveWorkerMetrics } from '../src/telemetry/worker-metrics';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { diagnostic, testUser, waitJob } from './support/jobs';

/**
 * Issue 34, metrics and traces: `/metrics` in Prometheus text format (HTTP latency by route,
 * queue depth and age by kind of work, job durations and outcomes, child peak memory, storage
 * bytes), open by default and behind a bearer token when METRICS_TOKEN is set; a parsed upload's
 * trace has spans for the request, the queue wait, the worker and the child process.
 */
const exporter = new InMemorySpanExporter();
const removeExporter = addSpanExporter(exporter);

/** The value of one sample line of a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

const pbmc = () =>
  ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(sharedData(`pbmc3k/10x/${f}`)!));

describe(`metrics and traces on ${TEST_DB}`, () => {
  let s: TestServer;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    s = await createTestServer({ METRICS_STORAGE_SECONDS: '0' });
    await s.listen();
    ({
      token,
      user: { id: userId },
    } = await testUser(s).then((u) => ({ token: u.token, user: u.user })));
  });
  afterAll(async () => {
    removeExporter();
    await s?.close();
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const r = await fetch(`${s.url}/metrics`, { headers });
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };

  it('serves the listed series without a user token, and a job run changes the job counters', async () => {
    await s.request('GET', '/api/health');
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);
    // latency by route pattern, never by raw URL
    expect(before.text).toMatch(/cellcloud_http_request_duration_seconds_bucket\{[^}]*route="\/api\/health"/);
    expect(before.text).toMatch(
      /cellcloud_queue_jobs\{job="analysis\.run",kind="analyses",state="created"\} 0/,
    );
    expect(before.text).toMatch(
      /cellcloud_queue_oldest_waiting_seconds\{job="dataset\.ingest",kind="parsing"\}/,
    );
    expect(before.text).toMatch(/cellcloud_storage_bytes\{area="raw"\}/);
    expect(before.text).toMatch(/# TYPE cellcloud_jobs_total counter/);
    expect(before.text).toMatch(/# TYPE cellcloud_child_peak_rss_bytes histogram/);
    expect(before.text).toMatch(/# TYPE cellcloud_job_duration_seconds histogram/);

    const labels = { job: 'system.noop', kind: 'system', outcome: 'completed' };
    const job = await diagnostic(s, userId, 'metrics_job', { sleepMs: 300 });
    await waitJob(s, token, job.id, (j) => j.status === 'completed');
    const after = await scrape();
    expect(sample(after.text, 'cellcloud_jobs_total', labels)).toBe(
      sample(before.text, 'cellcloud_jobs_total', labels) + 1,
    );
    expect(sample(after.text, 'cellcloud_job_duration_seconds_count', labels)).toBe(
      sample(before.text, 'cellcloud_job_duration_seconds_count', labels) + 1,
    );
    // every worker's analysis jobs by status, from the database
    expect(after.text).toMatch(/cellcloud_analysis_jobs\{kind="[a-z]+",status="completed"\} [1-9]/);
    expect(sample(after.text, 'cellcloud_job_duration_seconds_sum', labels)).toBeGreaterThan(
      sample(before.text, 'cellcloud_job_duration_seconds_sum', labels) + 0.25,
    );
  });

  it('a parsed upload: storage bytes and the parse child peak memory change; its trace has request, queue wait, worker and child spans', async () => {
    const before = await scrape();
    exporter.reset();
    const row = await uploadSample(s, token, 'traced_pbmc', pbmc());
    expect((await waitParsed(s, token, row.id)).state).toBe('completed');
    const after = await scrape();
    expect(sample(after.text, 'cellcloud_storage_bytes', { area: 'datasets' })).toBeGreaterThan(
      sample(before.text, 'cellcloud_storage_bytes', { area: 'datasets' }),
    );
    const peaks = (t: string) =>
      sample(t, 'cellcloud_child_peak_rss_bytes_count', { entry: 'dataset.ingest' });
    expect(peaks(after.text)).toBe(peaks(before.text) + 1);
    expect(
      sample(after.text, 'cellcloud_child_peak_rss_max_bytes', { entry: 'dataset.ingest' }),
    ).toBeGreaterThan(50 * 1024 * 1024);

    const spans = exporter.getFinishedSpans();
    const worker = spans.find((sp) => sp.name === 'job dataset.ingest');
    expect(worker, spans.map((sp) => sp.name).join(', ')).toBeDefined();
    const traceId = worker!.spanContext().traceId;
    const inTrace = spans.filter((sp) => sp.spanContext().traceId === traceId);
    const byId = new Map(inTrace.map((sp) => [sp.spanContext().spanId, sp]));
    const parentOf = (sp: (typeof spans)[number]) => byId.get(sp.parentSpanContext?.spanId ?? '');
    const request = parentOf(worker!);
    expect(request?.name).toMatch(/^PATCH \/api\/files\/tus/);
    const wait = inTrace.find((sp) => sp.name === 'queue.wait dataset.ingest');
    expect(parentOf(wait!)).toBe(request);
    const child = inTrace.find((sp) => sp.name === 'child dataset.ingest');
    expect(parentOf(child!)).toBe(worker);
    expect(child!.attributes['process.peak_rss_bytes']).toBeGreaterThan(0);
    // the child ran inside the worker span, which ran inside the request's trace
    const t = (hr: [number, number]) => hr[0] * 1e3 + hr[1] / 1e6;
    expect(t(child!.startTime)).toBeGreaterThanOrEqual(t(worker!.startTime));
    expect(t(child!.endTime)).toBeLessThanOrEqual(t(worker!.endTime));
  });

  it('the sample Grafana dashboard queries only series /metrics exposes', async () => {
    const dashboard = readFileSync(
      new URL('../../../deploy/grafana/cellcloud-dashboard.json', import.meta.url),
      'utf8',
    );
    const exprs = (JSON.parse(dashboard) as { panels: { targets: { expr: string }[] }[] }).panels.flatMap(
      (p) => p.targets.map((t) => t.expr),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const names = new Set(exprs.flatMap((e) => e.match(/cellcloud_[a-z_]+/g) ?? []));
    const declared = new Set([...(await scrape()).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    for (const n of names) expect(declared, n).toContain(n.replace(/_(bucket|count|sum)$/, ''));
  });
});

describe(`metrics behind METRICS_TOKEN on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer({ METRICS_TOKEN: 'scrape-secret-1' });
  });
  afterAll(async () => s?.close());

  it('answers 401 without or with a wrong bearer token, 200 with the right one', async () => {
    const none = await s.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await s.request('GET', '/metrics', {
      headers: { authorization: 'Bearer scrape-secret-2' },
    });
    expect(wrong.status).toBe(401);
    const zh = await s.request('GET', '/metrics', { lang: 'zh-CN' });
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    const right = await s.request('GET', '/metrics', {
      headers: { authorization: 'Bearer scrape-secret-1' },
    });
    expect(right.status).toBe(200);
    expect(right.raw).toMatch(/cellcloud_queue_jobs\{/);
  });
});

describe(`a worker-only process's metrics on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer({ WORKER_METRICS_PORT: '0', METRICS_TOKEN: 'worker-secret' });
  });
  afterAll(async () => s?.close());

  it('serves /metrics on WORKER_METRICS_PORT behind the same token', async () => {
    const server = await serveWorkerMetrics(s.ctx);
    try {
      const a = server!.address();
      const base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer worker-secret' } });
      expect(ok.status).toBe(200);
      const text = await ok.text();
      expect(text).toMatch(/# TYPE cellcloud_jobs_total counter/);
      expect(text).toMatch(/cellcloud_queue_jobs\{job="dataset\.ingest",kind="parsing",state="active"\}/);
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      server?.close();
    }
  });
});
