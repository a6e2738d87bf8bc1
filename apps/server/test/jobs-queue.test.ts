import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsDeps } from '../src/services/jobs-wire';
import { createTestServer, type TestServer } from './support/harness';
import { diagnostic, jobRow, testUser, waitJob } from './support/jobs';

/**
 * The job queue on this run's database (PGlite or PostgreSQL): lifecycle, retries of a throwing
 * handler, final failure with a notification, expiry (timeout), and a worker stopped mid-job
 * whose job is picked up again.
 */
describe('job queue lifecycle', () => {
  let s: TestServer;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    s = await createTestServer({
      WORKER_CONCURRENCY: '2',
      QUEUE_SUPERVISE_SECONDS: '1',
      JOB_HEARTBEAT_SECONDS: '10',
    });
    ({
      token,
      user: { id: userId },
    } = await testUser(s).then((u) => ({ token: u.token, user: u.user })));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('runs a job to completed with progress, once, and notifies', async () => {
    const job = await diagnostic(s, userId, 'quick_job', { sleepMs: 600 });
    expect(['queued', 'running']).toContain(job.status);
    const done = await waitJob(s, token, job.id, (j) => j.status === 'completed');
    expect(done.progress).toBe(1);
    expect(done.finishedAt).not.toBeNull();
    expect((await jobRow(s, job.id)).completions).toBe(1);
    const unread = await s.request('GET', '/api/database-api/celeLens/user/notifications/unread', { token });
    expect(unread.body.data).toBeGreaterThanOrEqual(1);
    const list = await s.request('GET', '/api/database-api/celeLens/user/notifications', { token });
    expect(
      list.body.data.rows.some(
        (n: { kind: string; jobId: string }) => n.kind === 'job.completed' && n.jobId === job.id,
      ),
    ).toBe(true);
  });

  it('retries a handler that throws, then completes on the next attempt', async () => {
    const job = await diagnostic(s, userId, 'flaky_job', { failTimes: 1 });
    const done = await waitJob(s, token, job.id, (j) => j.status === 'completed');
    const row = await jobRow(s, job.id);
    expect(row.attempt).toBe(1);
    expect(row.completions).toBe(1);
    expect(done.message).toBeNull();
  });

  it('marks a job error with its message when every attempt fails, and notifies', async () => {
    const job = await diagnostic(s, userId, 'broken_job', { failTimes: 9 });
    const failed = await waitJob(s, token, job.id, (j) => j.status === 'error');
    expect(failed.message).toMatch(/diagnostic failure on attempt 2/);
    const list = await s.request('GET', '/api/database-api/celeLens/user/notifications', {
      token,
      lang: 'en-US',
    });
    expect(
      list.body.data.rows.some(
        (n: { kind: string; jobId: string }) => n.kind === 'job.failed' && n.jobId === job.id,
      ),
    ).toBe(true);
  });

  it('suspends a running job (its attempt stops at the next progress report) and resumes it', async () => {
    const job = await diagnostic(s, userId, 'long_job', { sleepMs: 4000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running' && j.progress > 0);
    const sus = await s.request('POST', `/api/jobs/${job.id}/suspend`, { token });
    expect(sus.body.data.status).toBe('suspended');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await jobRow(s, job.id)).status).toBe('suspended');
    const res = await s.request('POST', `/api/jobs/${job.id}/resume`, { token });
    expect(res.body.data.status).toBe('queued');
    await waitJob(s, token, job.id, (j) => j.status === 'completed');
    expect((await jobRow(s, job.id)).completions).toBe(1);
  });

  it('fences a suspended attempt out when the job is resumed at once (one completion)', async () => {
    const job = await diagnostic(s, userId, 'resumed_job', { sleepMs: 3000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running' && j.progress > 0);
    await s.request('POST', `/api/jobs/${job.id}/suspend`, { token });
    const res = await s.request('POST', `/api/jobs/${job.id}/resume`, { token });
    expect(res.body.data.status).toBe('queued');
    await waitJob(s, token, job.id, (j) => j.status === 'completed');
    await new Promise((r) => setTimeout(r, 3500)); // the old attempt would have finished by now
    expect((await jobRow(s, job.id)).completions).toBe(1);
  });

  it('hands the job of a stopped worker to another worker, which completes it once', async () => {
    const deps = jobsDeps(s.ctx);
    const job = await diagnostic(s, userId, 'orphan_job', { sleepMs: 20_000 });
    await waitJob(s, token, job.id, (j) => j.status === 'running');
    // Stop this worker without waiting: its running attempt is aborted and never settles the
    // queue job, so only the heartbeat monitor can hand it on.
    await deps.queue.stop(false);
    const { JobQueue } = await import('../src/queue/job-queue');
    const { startWorker } = await import('../src/jobs/runner');
    const second = new JobQueue({ ...s.ctx.config }, s.ctx.db);
    await second.start();
    const worker = await startWorker(s.ctx, second, deps.notifications);
    try {
      const done = await waitJob(s, token, job.id, (j) => j.status === 'completed', 120_000);
      expect(done.status).toBe('completed');
      const row = await jobRow(s, job.id);
      expect(row.attempt).toBeGreaterThanOrEqual(1);
      expect(row.completions).toBe(1);
    } finally {
      await worker.stop();
      await second.stop();
    }
  });
});

describe('job expiry', () => {
  let s: TestServer;
  afterAll(async () => {
    await s?.close();
  });

  it('fails a job that runs past its timeout on every attempt, with a message', async () => {
    // 3-second timeout; the job would need 30 seconds.
    s = await createTestServer({
      JOB_TIMEOUT_MINUTES: '0.05',
      QUEUE_SUPERVISE_SECONDS: '1',
      JOB_HEARTBEAT_SECONDS: '10',
    });
    const { token, user } = await testUser(s);
    const job = await diagnostic(s, user.id, 'slow_job', { sleepMs: 30_000 });
    const failed = await waitJob(s, token, job.id, (j) => j.status === 'error', 120_000);
    expect(failed.message).toBeTruthy();
    expect((await jobRow(s, job.id)).completions).toBe(0);
  });
});
