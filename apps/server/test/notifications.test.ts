import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsDeps } from '../src/services/jobs-wire';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

const base = '/api/database-api/celeLens/user/notifications';

/** docs/product/api.md#notification-calls notifications API: unread count, paged list, mark read (form PUT), delete selected/all. */
describe('notifications API', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof testUser>>;
  let b: Awaited<ReturnType<typeof testUser>>;

  beforeAll(async () => {
    s = await createTestServer({ WORKER_CONCURRENCY: '0' });
    a = await testUser(s);
    b = await testUser(s);
    const n = jobsDeps(s.ctx).notifications;
    for (let i = 0; i < 12; i++)
      await n.create(a.user.id, 'job.completed', { jobName: `job_${i}`, analysisId: `CA${i}` });
    await n.create(b.user.id, 'job.failed', { jobName: 'other', analysisId: 'CAX', message: 'boom' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('requires a token', async () => {
    expect((await s.request('GET', `${base}/unread`)).status).toBe(401);
  });

  it('counts unread notifications of the signed-in user only', async () => {
    expect((await s.request('GET', `${base}/unread`, { token: a.token })).body.data).toBe(12);
    expect((await s.request('GET', `${base}/unread`, { token: b.token })).body.data).toBe(1);
  });

  it('lists newest first, paged', async () => {
    const p1 = await s.request('GET', `${base}?pageNum=1&pageSize=5`, { token: a.token });
    expect(p1.body.data.total).toBe(12);
    expect(p1.body.data.rows).toHaveLength(5);
    expect(p1.body.data.rows[0].params.jobName).toBe('job_11');
    const p3 = await s.request('GET', `${base}?pageNum=3&pageSize=5`, { token: a.token });
    expect(p3.body.data.rows.map((r: { params: { jobName: string } }) => r.params.jobName)).toEqual([
      'job_1',
      'job_0',
    ]);
  });

  it('marks one read with a form PUT, and not another user’s', async () => {
    const list = await s.request('GET', `${base}?pageSize=1`, { token: a.token });
    const id = list.body.data.rows[0].id as string;
    expect(
      (await s.request('PUT', `${base}/${id}`, { token: a.token, body: { read: 'true' }, form: true }))
        .status,
    ).toBe(200);
    expect((await s.request('GET', `${base}/unread`, { token: a.token })).body.data).toBe(11);
    expect(
      (await s.request('PUT', `${base}/${id}`, { token: b.token, body: { read: 'true' }, form: true }))
        .status,
    ).toBe(404);
    const unreadOnly = await s.request('GET', `${base}?unreadOnly=true&pageSize=50`, { token: a.token });
    expect(unreadOnly.body.data.total).toBe(11);
  });

  it('deletes selected ones (repeated ids) and then all', async () => {
    const list = await s.request('GET', `${base}?pageSize=2`, { token: a.token });
    const [x, y] = list.body.data.rows.map((r: { id: string }) => r.id);
    const del = await s.request('DELETE', `${base}?ids=${x}&ids=${y}`, { token: a.token });
    expect(del.status, del.raw).toBe(200);
    expect(del.body.data.deleted).toBe(2);
    expect((await s.request('GET', base, { token: a.token })).body.data.total).toBe(10);
    const all = await s.request('DELETE', base, { token: a.token });
    expect(all.body.data.deleted).toBe(10);
    expect((await s.request('GET', `${base}/unread`, { token: a.token })).body.data).toBe(0);
    expect((await s.request('GET', `${base}/unread`, { token: b.token })).body.data).toBe(1);
  });
});
