import { createHash } from 'node:crypto';
import { accountPaths } from '@cellcloud/contracts';
import { DOWNLOADS_API, type DownloadView } from '@cellcloud/contracts/downloads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLink, withLinkSession } from '../src/services/downloads/signing';
import { fileFrom, uploadSample, waitParsed } from './files-helpers';
import { logIn } from './support/accounts';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { sharedData } from '@cellcloud/testkit';

/**
 * Issue 34, findings of the outside probe: download links are tied to the session that was shown
 * them, short-lived and revoked with it (they were bearer links valid for 7 days); a draft refuses
 * another user's upload id instead of queueing a job on it.
 */
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

describe(`download links tied to the session on ${TEST_DB}`, () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>> & { password?: string };
  let other: Awaited<ReturnType<typeof testUser>>;
  let view: DownloadView;

  beforeAll(async () => {
    s = await createTestServer({ DOWNLOAD_LINK_MINUTES: '15' });
    await s.listen();
    owner = await testUser(s);
    other = await testUser(s);
    const job = await completedJobWithArtifacts(s, owner.user.id);
    await s.ctx.storage.put(
      `results/${job.id}/markers.csv`,
      new TextEncoder().encode('cluster,gene\n0,CD3D\n'),
    );
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      body: { datasetId: job.id, kind: 'markers' },
    });
    expect(r.status).toBe(200);
    for (let i = 0; i < 300; i++) {
      view = (await s.request('GET', DOWNLOADS_API.one(r.body.data.id), { token: owner.token })).body.data;
      if (view.exportState === 'ready' || view.exportState === 'failed') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(view.exportState).toBe('ready');
  });
  afterAll(async () => s?.close());

  it('a link names the session it was shown to and lives DOWNLOAD_LINK_MINUTES, not the 7-day availability', async () => {
    const u = new URL(view.url!, s.url);
    expect(u.searchParams.get('sid')).toBe(sha(owner.token));
    expect(u.searchParams.has('token')).toBe(false);
    const exp = Number(u.searchParams.get('exp')) * 1000;
    expect(exp).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(exp).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(new Date(view.expiresAt!).getTime() - exp).toBeGreaterThan(6 * 86_400_000);
    const got = await fetch(`${s.url}${view.url}`);
    expect(got.status).toBe(200);
    expect(await got.text()).toContain('CD3D');
  });

  it('a link stops working when its session signs out; a link of another session goes on', async () => {
    const second = await logIn(s, (await userName(s, owner.user.id))!, 'Secret12');
    const fresh = (await s.request('GET', DOWNLOADS_API.one(view.id), { token: second })).body
      .data as DownloadView;
    expect(new URL(fresh.url!, s.url).searchParams.get('sid')).toBe(sha(second));
    expect((await s.request('GET', accountPaths.signOut, { token: owner.token })).status).toBe(200);
    const revoked = await s.request('GET', view.url!, { lang: 'zh-CN' });
    expect(revoked.status).toBe(403);
    expect(revoked.body.msg).toContain('登录会话已结束');
    const en = await s.request('GET', view.url!, { lang: 'en-US' });
    expect(en.body.msg).toMatch(/belonged to a session that has ended/);
    expect((await fetch(`${s.url}${fresh.url}`)).status).toBe(200);
    owner.token = second;
  });

  it('a link moved to another session is invalid; another user cannot be given a link to it', async () => {
    const moved = view.url!.replace(/sid=[0-9a-f]+/, `sid=${sha(other.token)}`);
    const bad = await s.request('GET', moved, { lang: 'en-US' });
    expect(bad.status).toBe(403);
    expect(bad.body.msg).toMatch(/not valid/);
    // a link correctly signed for the other user's live session still refuses a request that is not theirs
    const signed = await withLinkSession(other.token, () =>
      signLink(s.ctx, view.id, new Date(view.expiresAt!)),
    );
    const url = `${DOWNLOADS_API.file(view.id)}?exp=${signed!.exp}&sig=${signed!.sig}&sid=${signed!.sid}`;
    expect((await s.request('GET', url)).status).toBe(403);
  });

  it('a link past its minutes is refused with "open the list again" while the download is still available', async () => {
    const old = await withLinkSession(owner.token, () =>
      signLink(s.ctx, view.id, new Date(view.expiresAt!), new Date(Date.now() - 16 * 60_000)),
    );
    const url = `${DOWNLOADS_API.file(view.id)}?exp=${old!.exp}&sig=${old!.sig}&sid=${old!.sid}`;
    const stale = await s.request('GET', url, { lang: 'en-US' });
    expect(stale.status).toBe(403);
    expect(stale.body.msg).toMatch(/Open Requested Downloads again/);
    const zh = await s.request('GET', url, { lang: 'zh-CN' });
    expect(zh.body.msg).toContain('已失效');
  });

  it('a download view without a session (no request) carries no link', async () => {
    expect(await signLink(s.ctx, view.id, new Date(view.expiresAt!))).toBeUndefined();
  });
});

async function userName(s: TestServer, id: string) {
  const rows = await s.ctx.db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [id]);
  return rows[0]?.username;
}

describe(`a draft refuses another user's upload on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
  });
  afterAll(async () => s?.close());

  it('404 with a translated message on save and on the cell-filtering start; nothing is queued', async () => {
    const victim = await testUser(s);
    const attacker = await testUser(s);
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) =>
      fileFrom(sharedData(`pbmc3k/10x/${f}`)!),
    );
    const row = await uploadSample(s, victim.token, 'victim_pbmc', files);
    expect((await waitParsed(s, victim.token, row.id)).state).toBe('completed');
    const draft = (id: string) => ({
      stepTag: 2,
      pageTag: 'myAnalyzes',
      datasets: [{ id, name: 'S1', group: 'G1' }],
      param: { jobName: 'probe_job' },
    });
    const jobsBefore = await s.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'analysis.preprocess'`,
    );

    const saved = await s.request('POST', '/api/drafts', {
      token: attacker.token,
      lang: 'zh-CN',
      body: draft(row.id),
    });
    expect(saved.status).toBe(404);
    expect(saved.body.msg).toContain('在您的上传中未找到样本');
    expect(saved.body.msg).not.toMatch(/wizard\./);

    // a draft saved before with an own (unknown) id, then switched to the victim's upload
    const own = await s.request('POST', '/api/drafts', {
      token: attacker.token,
      body: draft('deleted-upload'),
    });
    expect(own.status).toBe(200);
    const id = own.body.data.id as string;
    const put = await s.request('PUT', `/api/drafts/${id}`, {
      token: attacker.token,
      lang: 'en-US',
      body: draft(row.id),
    });
    expect(put.status).toBe(404);
    expect(put.body.msg).toMatch(/was not found among your uploads/);
    // the stored draft was not changed, so the start cannot reach the victim's upload either
    await s.ctx.db.query(
      `UPDATE analysis_drafts SET content = jsonb_set(content, '{datasets}', $2::jsonb) WHERE id = $1`,
      [id, JSON.stringify([{ id: row.id, name: 'S1', group: 'G1' }])],
    );
    const start = await s.request('POST', `/api/drafts/${id}/cell-filtering`, {
      token: attacker.token,
      lang: 'en-US',
    });
    expect(start.status).toBe(404);
    expect(start.body.msg).toMatch(/was not found among your uploads/);
    const jobsAfter = await s.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'analysis.preprocess'`,
    );
    expect(Number(jobsAfter[0]!.n)).toBe(Number(jobsBefore[0]!.n));

    // the owner's own draft with the same upload is accepted
    const mine = await s.request('POST', '/api/drafts', { token: victim.token, body: draft(row.id) });
    expect(mine.status).toBe(200);
  });
});
