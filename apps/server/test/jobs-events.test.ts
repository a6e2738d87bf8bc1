import type { JobEvent } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './support/harness';
import { diagnostic, testUser } from './support/jobs';

/** Reads server-sent events from a real HTTP connection until `stop` returns true. */
async function collect(
  url: string,
  stop: (events: JobEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<JobEvent[]> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  const res = await fetch(url, { signal: ac.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: JobEvent[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body!) {
      buf += decoder.decode(chunk as Uint8Array, { stream: true });
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) events.push(JSON.parse(data.slice(6)) as JobEvent);
      }
      if (stop(events)) break;
    }
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return events;
}

describe('job events (SSE)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer({ WORKER_CONCURRENCY: '1' });
    await s.listen();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('rejects a stream without a valid token', async () => {
    const r = await fetch(`${s.url}/api/jobs/events?token=nope`);
    expect(r.status).toBe(401);
  });

  it('streams progress of my job up to completed, then the new unread count', async () => {
    const { token, user } = await testUser(s);
    const other = await testUser(s);
    const done = (ev: JobEvent[]) =>
      ev.some((e) => e.type === 'job' && e.job.status === 'completed') &&
      ev.some((e) => e.type === 'notifications' && e.unread >= 1);
    const stream = collect(`${s.url}/api/jobs/events?token=${encodeURIComponent(token)}`, done);
    const otherStream = collect(
      `${s.url}/api/jobs/events?token=${encodeURIComponent(other.token)}`,
      () => false,
      8000,
    ).catch(() => [] as JobEvent[]);
    await new Promise((r) => setTimeout(r, 300));
    const job = await diagnostic(s, user.id, 'streamed_job', { sleepMs: 2500 });
    const events = await stream;
    const mine = events.filter(
      (e): e is Extract<JobEvent, { type: 'job' }> => e.type === 'job' && e.job.id === job.id,
    );
    const running = mine.filter((e) => e.job.status === 'running');
    expect(running.length).toBeGreaterThan(1);
    const fractions = running.map((e) => e.job.progress);
    expect(fractions.some((f) => f > 0 && f < 1)).toBe(true);
    expect(mine.at(-1)!.job.status).toBe('completed');
    const counts = events.filter((e) => e.type === 'notifications');
    expect(counts.at(0)).toEqual({ type: 'notifications', unread: 0 });
    expect(counts.at(-1)).toEqual({ type: 'notifications', unread: 1 });
    const theirs = await otherStream;
    expect(theirs.some((e) => e.type === 'job')).toBe(false);
  });
});
