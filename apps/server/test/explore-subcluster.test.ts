import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildTaskView } from '@cellcloud/contracts/explore-deg';
import { createTestServer, type TestServer } from './support/harness';
import { testUser, waitJob } from './support/jobs';
import { completedJobWithH5ad } from './support/explore-deg';

describe('sub-celltype analysis (subcluster_task): a child analysis of a subset', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let parentId: string;
  let base: string;
  let subsetId: string;

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    parentId = (await completedJobWithH5ad(s, owner.user.id, 60, 300)).id;
    base = `/api/user_datasets/${parentId}`;
    subsetId = (
      await s.request('POST', `${base}/observation_subset`, {
        token: owner.token,
        body: { from: 'copy', name: 'clusters_copy', key: 'cluster' },
      })
    ).body.data.id;
  });
  afterAll(() => s?.close());

  it('refuses an uncopied annotation level and fewer than 100 cells, in both languages', async () => {
    const raw = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: 'cluster', labels: ['0', '1'] },
    });
    expect(raw.status).toBe(400);
    expect(raw.body.msg).toContain('must be copied before subclustering or extraction');
    const rawZh = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: 'cluster' },
      lang: 'zh-CN',
    });
    expect(rawZh.body.msg).toContain('须先复制');
    const few = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: `subset:${subsetId}`, labels: ['0'] },
    });
    expect(few.status).toBe(400);
    expect(few.body.msg).toBe('The selection has 60 cells; sub-celltype analysis needs at least 100 cells.');
    const fewZh = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: `subset:${subsetId}`, labels: ['0'] },
      lang: 'zh-CN',
    });
    expect(fewZh.body.msg).toContain('至少需要 100 个细胞');
    expect(
      (
        await s.request('POST', `${base}/subcluster_task`, {
          token: other.token,
          body: { key: `subset:${subsetId}` },
        })
      ).status,
    ).toBe(404);
  });

  it('runs the child on the chosen cells; it opens like any result and locks its subset', async () => {
    const r = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: `subset:${subsetId}`, labels: ['0', '1'], params: { clusteringResolution: 0.5 } },
    });
    expect(r.status).toBe(200);
    const child = r.body.data as ChildTaskView;
    expect(child).toMatchObject({ parentId, subsetId, labels: ['0', '1'], nCells: 120 });
    const job = await waitJob(
      s,
      owner.token,
      child.childId,
      (j) => j.status === 'completed' || j.status === 'error',
      120_000,
    );
    expect(job.status).toBe('completed');
    const manifest = await s.request('GET', `/api/user_datasets/${child.childId}/artifacts/manifest.json`, {
      token: owner.token,
    });
    expect(manifest.status).toBe(200);
    const m = manifest.body as unknown as { nCells: number; obs: { key: string }[] };
    expect(m.nCells).toBe(120);
    expect(m.obs.map((o) => o.key)).toContain('cluster');
    const list = await s.request('GET', `${base}/child_tasks`, { token: owner.token });
    expect(list.body.data[0]).toMatchObject({ childId: child.childId, status: 'completed' });
    const subset = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subsetId}`, { token: owner.token })
    ).body.data;
    expect(subset.hasChildTasks).toBe(true);
    const del = await s.request('DELETE', `${base}/observation_subset/${subsetId}`, { token: owner.token });
    expect(del.status).toBe(409);
    expect(del.body.msg).toBe('The subset has subtasks, so it cannot be deleted or renamed.');
    const ren = await s.request('POST', `${base}/observation_edit_subset`, {
      token: owner.token,
      body: { subsetId, name: 'renamed' },
    });
    expect(ren.status).toBe(409);
    expect((await s.request('GET', `${base}/child_tasks`, { token: other.token })).status).toBe(404);

    // A child is not re-edited in the wizard; deleting it unlocks its subset again.
    const reedit = await s.request('POST', `/api/jobs/${child.childId}/reedit`, { token: owner.token });
    expect(reedit.status).toBe(409);
    expect(reedit.body.msg).toMatch(/started from the explorer/);
    expect((await s.request('DELETE', `/api/jobs/${child.childId}`, { token: owner.token })).status).toBe(
      200,
    );
    expect((await s.request('GET', `${base}/child_tasks`, { token: owner.token })).body.data).toHaveLength(0);
    const unlocked = await s.request('POST', `${base}/observation_edit_subset`, {
      token: owner.token,
      body: { subsetId, name: 'renamed' },
    });
    expect(unlocked.status).toBe(200);
  }, 180_000);

  it('resumes a suspended child on its own queue (analysis.subcluster)', async () => {
    const r = await s.request('POST', `${base}/subcluster_task`, {
      token: owner.token,
      body: { key: `subset:${subsetId}`, labels: ['0', '1'] },
    });
    const childId = (r.body.data as ChildTaskView).childId;
    const sus = await s.request('POST', `/api/jobs/${childId}/suspend`, { token: owner.token });
    expect(sus.status).toBe(200); // the child takes seconds, so it is still waiting or running
    const res = await s.request('POST', `/api/jobs/${childId}/resume`, { token: owner.token });
    expect(res.status).toBe(200);
    const job = await waitJob(
      s,
      owner.token,
      childId,
      (j) => j.status === 'completed' || j.status === 'error',
      120_000,
    );
    expect(job.status).toBe('completed');
  }, 180_000);
});
