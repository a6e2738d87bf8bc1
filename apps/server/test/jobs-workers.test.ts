import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { diagnostic, jobRow, testUser, waitJob } from './support/jobs';
import { spawnWorker } from './support/worker-process';

/** Starts `npm run worker` (the worker entry) as a separate process; resolves once it is polling. */
const startWorkerProcess = (s: TestServer): Promise<ChildProcess> => spawnWorker(s).then((w) => w.child);

/**
 * Two separate worker processes on one PostgreSQL database (the API runs no worker). The worker
 * running a job is killed (SIGKILL) mid-job; the other worker must take the job over and it must
 * complete exactly once.
 */
describe.skipIf(TEST_DB !== 'postgres')('two worker processes, one killed mid-job (PostgreSQL)', () => {
  let s: TestServer;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    s = await createTestServer({
      IN_PROCESS_WORKER: 'false',
      QUEUE_SUPERVISE_SECONDS: '1',
      JOB_HEARTBEAT_SECONDS: '10',
    });
    workers.push(await startWorkerProcess(s), await startWorkerProcess(s));
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await s?.close();
  });

  it('completes the job once on the surviving worker', async () => {
    const { token, user } = await testUser(s);
    const job = await diagnostic(s, user.id, 'killed_worker_job', { sleepMs: 6000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running' && j.progress > 0);
    const first = await jobRow(s, job.id);
    const pid = Number(first.worker!.split(':').pop());
    const victim = workers.find((w) => w.pid === pid);
    expect(victim, `job ran on pid ${pid}, not one of the test workers`).toBeDefined();
    victim!.kill('SIGKILL');

    const done = await waitJob(s, token, job.id, (j) => j.status === 'completed', 150_000);
    expect(done.status).toBe('completed');
    const row = await jobRow(s, job.id);
    expect(row.completions).toBe(1);
    expect(row.attempt).toBeGreaterThanOrEqual(1);
    const survivor = workers.find((w) => w !== victim)!;
    expect(row.worker!.endsWith(`:${survivor.pid}`)).toBe(true);
    const [{ n }] = await s.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE job_id = $1 AND kind = 'job.completed'`,
      [job.id],
    );
    expect(n).toBe(1);
  });
});
