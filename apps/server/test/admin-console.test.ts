import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_API,
  type AdminAuditView,
  type AdminJobView,
  type AdminPlanView,
  type AdminUserView,
} from '@cellcloud/contracts/admin';
import { FILES_API } from '@cellcloud/contracts/files';
import { logIn, signUp } from './support/accounts';
import { diagnostic, waitJob } from './support/jobs';
import { createTestServer, type TestServer } from './support/harness';

/**
 * Issue 21 admin console API on a real server: admin-only (401 / 403), disabling a user stops
 * its token and its login and enabling restores it, a plan's privilege switch takes effect on
 * the next call, and every action lands in the audit log (newest first).
 */
describe('admin console API', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let user: Awaited<ReturnType<typeof signUp>>;
  let userId: string;

  beforeAll(async () => {
    s = await createTestServer();
    admin = await signUp(s);
    user = await signUp(s);
    await s.ctx.db.query('UPDATE users SET is_admin = true WHERE username = $1', [admin.username]);
    const u = await s.ctx.auth.resolve(user.token);
    if (!u || u === 'expired') throw new Error('user token');
    userId = u.id;
  });
  afterAll(() => s?.close());

  it('answers 401 without a token and 403 to a non-admin', async () => {
    for (const url of [
      ADMIN_API.users,
      ADMIN_API.plans,
      ADMIN_API.jobs,
      ADMIN_API.storage,
      ADMIN_API.audit,
    ]) {
      expect((await s.request('GET', url)).status).toBe(401);
      expect((await s.request('GET', url, { token: user.token })).status).toBe(403);
      expect((await s.request('GET', url, { token: admin.token })).status).toBe(200);
    }
    expect((await s.request('POST', ADMIN_API.disable(userId), { token: user.token })).status).toBe(403);
  });

  it('searches users and shows plan, storage and last login', async () => {
    const r = await s.request('GET', `${ADMIN_API.users}?search=${user.username.toUpperCase()}`, {
      token: admin.token,
    });
    const rows = r.body.data as AdminUserView[];
    expect(rows.map((x) => x.username)).toEqual([user.username]);
    expect(rows[0]!.planId).toBe('researcher');
    expect(rows[0]!.lastLoginAt).not.toBeNull();
    expect(rows[0]!.storageBytes).toBe(0);
  });

  it('disable revokes the token and refuses login; enable lets the user in again', async () => {
    const d = await s.request('POST', ADMIN_API.disable(userId), { token: admin.token });
    expect((d.body.data as AdminUserView).disabled).toBe(true);
    expect((await s.request('GET', FILES_API.uploads, { token: user.token })).status).toBe(401);
    await expect(logIn(s, user.username, user.password)).rejects.toThrow();
    const e = await s.request('POST', ADMIN_API.enable(userId), { token: admin.token });
    expect((e.body.data as AdminUserView).disabled).toBe(false);
    user.token = await logIn(s, user.username, user.password);
    expect((await s.request('GET', FILES_API.uploads, { token: user.token })).status).toBe(200);
  });

  it('assigning a plan and switching its privilege changes what the user may do', async () => {
    const a = await s.request('POST', ADMIN_API.userPlan(userId), {
      token: admin.token,
      body: { planId: 'synecosys' },
    });
    expect((a.body.data as AdminUserView).planId).toBe('synecosys');
    // importData enabled: a bad body is a validation error (400), not a refusal.
    expect((await s.request('POST', FILES_API.uploads, { token: user.token, body: {} })).status).toBe(400);
    const p = await s.request('PUT', ADMIN_API.plan('synecosys'), {
      token: admin.token,
      body: { grants: [{ permission: 'importData', disabled: true, hidden: false }], quotaBytes: 1024 ** 3 },
    });
    expect(p.status).toBe(200);
    const plan = p.body.data as AdminPlanView;
    expect(plan.quotaBytes).toBe(1024 ** 3);
    expect(plan.grants.find((g) => g.permission === 'importData')?.disabled).toBe(true);
    expect((await s.request('POST', FILES_API.uploads, { token: user.token, body: {} })).status).toBe(403);
    // A permission the plan does not hold is refused.
    const bad = await s.request('PUT', ADMIN_API.plan('synecosys'), {
      token: admin.token,
      body: { grants: [{ permission: 'noSuchThing', disabled: true, hidden: false }] },
    });
    expect(bad.status).toBe(400);
  });

  it('lists failed jobs with their reason and re-queues one; cancels a running one', async () => {
    const broken = await diagnostic(s, userId, 'broken_job', { failTimes: 9 });
    await waitJob(s, user.token, broken.id, (j) => j.status === 'error');
    const failed = (await s.request('GET', `${ADMIN_API.jobs}?status=error`, { token: admin.token })).body
      .data as AdminJobView[];
    const row = failed.find((j) => j.id === broken.id)!;
    expect(row.username).toBe(user.username);
    expect(row.message).toMatch(/diagnostic failure/);
    const rq = await s.request('POST', ADMIN_API.requeue(broken.id), { token: admin.token });
    expect(rq.status).toBe(200);
    // the re-queued run carries no planted failure: it completes
    await waitJob(s, user.token, broken.id, (j) => j.status === 'completed');
    expect((await s.request('POST', ADMIN_API.requeue(broken.id), { token: admin.token })).status).toBe(409);

    const long = await diagnostic(s, userId, 'long_job', { sleepMs: 30_000 });
    await waitJob(s, user.token, long.id, (j) => j.status === 'running');
    const running = (await s.request('GET', ADMIN_API.jobs, { token: admin.token })).body
      .data as AdminJobView[];
    expect(running.map((j) => j.id)).toContain(long.id);
    const c = await s.request('POST', ADMIN_API.cancel(long.id), { token: admin.token });
    expect((c.body.data as AdminJobView).status).toBe('suspended');
  }, 120_000);

  it('writes every action to the audit log, newest first', async () => {
    const r = await s.request('GET', ADMIN_API.audit, { token: admin.token });
    const rows = r.body.data as AdminAuditView[];
    expect(rows.map((x) => x.action)).toEqual([
      'job.cancel',
      'job.requeue',
      'plan.update',
      'user.plan',
      'user.enable',
      'user.disable',
    ]);
    expect(rows.every((x) => x.adminUsername === admin.username)).toBe(true);
    expect(rows[5]!.target).toBe(user.username);
    expect(rows[0]!.target).toBe('long_job');
    expect(rows[3]!.details).toEqual({ from: 'researcher', to: 'synecosys' });
    expect(Date.parse(rows[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(rows[5]!.createdAt));
  });
});
