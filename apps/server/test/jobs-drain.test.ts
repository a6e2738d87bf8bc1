import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { diagnostic, jobRow, testUser, waitJob } from './support/jobs';
import { spawnWorker } from './support/worker-process';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

interface WorkerProcess {
  child: ChildProcess;
  port: number;
  out: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

/** `npm run worker` as a separate process with its probes on a port of its own. */
async function startWorker(s: TestServer, drainSeconds: number): Promise<WorkerProcess> {
  const port = await freePort();
  const { child, out } = await spawnWorker(s, {
    WORKER_DRAIN_SECONDS: String(drainSeconds),
    WORKER_METRICS_PORT: String(port),
    HOST: '127.0.0.1',
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  return { child, port, out, exited };
}

const probe = (w: WorkerProcess, route: string) =>
  fetch(`http://127.0.0.1:${w.port}${route}`).then((r) => r.status);

/**
 * SIGTERM drain of a worker process (issue 34), on PostgreSQL: the worker stops taking jobs at
 * once (readiness 503; a job queued after the signal waits), lets its running job finish within
 * WORKER_DRAIN_SECONDS and exits 0; a job still running at the deadline is handed back and
 * completed, once, by another worker.
 */
describe.skipIf(TEST_DB !== 'postgres')('worker SIGTERM drain (PostgreSQL)', () => {
  let s: TestServer;
  const workers: WorkerProcess[] = [];
  let token: string;
  let userId: string;

  beforeAll(async () => {
    s = await createTestServer({ IN_PROCESS_WORKER: 'false', QUEUE_SUPERVISE_SECONDS: '1' });
    const u = await testUser(s);
    token = u.token;
    userId = u.user.id;
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await s?.close();
  });

  it('finishes the running job, takes no new one and exits 0', async () => {
    const w = await startWorker(s, 20);
    workers.push(w);
    expect(await probe(w, '/healthz')).toBe(200);
    expect(await probe(w, '/readyz')).toBe(200);
    const job = await diagnostic(s, userId, 'drained_job', { sleepMs: 3000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running');
    const signalled = Date.now();
    w.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(await probe(w, '/readyz')).toBe(503);
    const later = await diagnostic(s, userId, 'queued_during_drain', { sleepMs: 100 });
    const { code, at } = await w.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(20_000);
    const row = await jobRow(s, job.id);
    expect(row.status).toBe('completed');
    expect(row.attempt).toBe(0);
    expect((await jobRow(s, later.id)).status).toBe('queued');
    expect(w.out.join('')).toMatch(/draining 1 running job/);
    // the next worker takes the job queued meanwhile
    const next = await startWorker(s, 20);
    workers.push(next);
    expect((await waitJob(s, token, later.id, (j) => j.status === 'completed', 60_000)).status).toBe(
      'completed',
    );
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  }, 180_000);

  it('hands a job still running at the deadline back; another worker completes it once', async () => {
    const w = await startWorker(s, 2);
    workers.push(w);
    const job = await diagnostic(s, userId, 'handed_back_job', { sleepMs: 10_000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running' && j.progress > 0);
    const signalled = Date.now();
    w.child.kill('SIGTERM');
    const { code, at } = await w.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeGreaterThanOrEqual(2000);
    expect(at - signalled).toBeLessThan(10_000);
    expect(w.out.join('')).toMatch(/1 job\(s\) handed back|0 job\(s\) handed back/);
    expect((await jobRow(s, job.id)).status).not.toBe('completed');
    const other = await startWorker(s, 20);
    workers.push(other);
    const done = await waitJob(s, token, job.id, (j) => j.status === 'completed', 90_000);
    expect(done.status).toBe('completed');
    const row = await jobRow(s, job.id);
    expect(row.completions).toBe(1);
    expect(row.attempt).toBeGreaterThanOrEqual(1);
    expect(row.worker!.endsWith(`:${other.child.pid}`)).toBe(true);
    other.child.kill('SIGTERM');
    expect((await other.exited).code).toBe(0);
  }, 180_000);
});
