import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { DegTaskView } from '@cellcloud/contracts/explore-deg';
import { exploreDegTasksRepo } from '../src/db/repos/explore-deg-tasks';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithH5ad, waitDegTask } from './support/explore-deg';

describe('explorer DE tasks (calculate_deg_task): cluster genes and any-vs-any comparison as jobs', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let base: string;
  const post = (body: unknown, lang: 'en-US' | 'zh-CN' = 'en-US', token = owner.token) =>
    s.request('POST', `${base}/calculate_deg_task`, { token, body, lang });

  const waitTask = (id: string): Promise<DegTaskView> => waitDegTask(s, owner.token, base, id);

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    base = `/api/user_datasets/${(await completedJobWithH5ad(s, owner.user.id)).id}`;
  });
  afterAll(() => s?.close());

  it('calculates cluster genes of a copied subset; the subset state goes running → done', async () => {
    const subset = (
      await s.request('POST', `${base}/observation_subset`, {
        token: owner.token,
        body: { from: 'copy', name: 'clusters_copy', key: 'cluster' },
      })
    ).body.data;
    const r = await post({ mode: 'cluster-markers', grouping: `subset:${subset.id}` });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      mode: 'cluster-markers',
      grouping: `subset:${subset.id}`,
      status: 'running',
    });
    const done = await waitTask(r.body.data.id);
    expect(done.status).toBe('completed');
    const sub = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subset.id}`, { token: owner.token })
    ).body.data;
    expect(sub.clusterGenes).toBe('done');
    const rows = (
      await s.request('GET', `${base}/deg_tasks/${r.body.data.id}/result`, { token: owner.token })
    ).body as unknown as DegRow[];
    expect(rows).toHaveLength(3 * 5);
    for (const [k, gene] of ['CD3D', 'MS4A1', 'LYZ'].entries()) {
      const top = rows.filter((x) => x.cluster === String(k))[0]!;
      expect(top.gene).toBe(gene);
      expect(top.log2fc).toBeGreaterThan(1);
      expect(top.padj).toBeLessThan(0.05);
    }
  });

  it('compares any two groups (labels vs the rest, lasso cells vs labels) and refuses groups under 3 cells', async () => {
    const r = await post({
      mode: 'compare',
      groupA: { from: 'labels', key: 'cluster', labels: ['1'] },
      groupB: { from: 'rest' },
    });
    expect(r.body.data).toMatchObject({ groupA: '1', groupB: 'rest', cellsA: 10, cellsB: 20 });
    expect((await waitTask(r.body.data.id)).status).toBe('completed');
    const rows = (
      await s.request('GET', `${base}/deg_tasks/${r.body.data.id}/result`, { token: owner.token })
    ).body as unknown as DegRow[];
    expect(rows[0]).toMatchObject({ cluster: '1', gene: 'MS4A1' });

    const lasso = await post({
      mode: 'compare',
      groupA: { from: 'cells', cells: [20, 21, 22, 23], name: 'lasso' },
      groupB: { from: 'labels', key: 'cluster', labels: ['0'] },
    });
    expect((await waitTask(lasso.body.data.id)).status).toBe('completed');
    const lrows = (
      await s.request('GET', `${base}/deg_tasks/${lasso.body.data.id}/result`, { token: owner.token })
    ).body as unknown as DegRow[];
    expect(lrows[0]).toMatchObject({ cluster: 'lasso', gene: 'LYZ' });

    const small = await post(
      { mode: 'compare', groupA: { from: 'cells', cells: [0, 1] }, groupB: { from: 'rest' } },
      'zh-CN',
    );
    expect(small.status).toBe(400);
    expect(small.body.msg).toContain('至少 3 个细胞');
    const smallEn = await post({
      mode: 'compare',
      groupA: { from: 'cells', cells: [0, 1] },
      groupB: { from: 'rest' },
    });
    expect(smallEn.body.msg).toContain('needs at least 3 cells');
    const overlap = await post({
      mode: 'compare',
      groupA: { from: 'cells', cells: [0, 1, 2] },
      groupB: { from: 'labels', key: 'cluster', labels: ['0'] },
    });
    expect(overlap.status).toBe(400);
  });

  it('marks a failed calculation so the user can start it again', async () => {
    const job = (await s.request('GET', `${base}/deg_tasks`, { token: owner.token })).body.data[0];
    expect(job).toBeDefined();
    // the stored result disappears (e.g. deleted analysis files): the job fails, the task says so
    const id = base.split('/').pop()!;
    const h5 = await s.ctx.storage.getBytes(`results/${id}/analysis.h5ad`);
    await s.ctx.storage.delete(`results/${id}/analysis.h5ad`);
    const r = await post({ mode: 'cluster-markers', grouping: 'cluster' });
    const t = await waitTask(r.body.data.id);
    expect(t.status).toBe('failed');
    const res = await s.request('GET', `${base}/deg_tasks/${t.id}/result`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('Cluster DEGs calculation failed, please try again.');
    await s.ctx.storage.put(`results/${id}/analysis.h5ad`, h5);
    const again = await post({ mode: 'cluster-markers', grouping: 'cluster' });
    expect((await waitTask(again.body.data.id)).status).toBe('completed');
  });

  it("allows one running calculation per user: a second request is refused in the user's language", async () => {
    const id = base.split('/').pop()!;
    const held = await exploreDegTasksRepo.insertRunning(s.ctx.db, {
      datasetId: id,
      userId: owner.user.id,
      mode: 'compare',
      grouping: null,
      labels: ['a', 'b'],
      cellsA: 3,
      cellsB: 3,
    });
    expect(held).toBeDefined();
    const en = await post({ mode: 'cluster-markers', grouping: 'cluster' });
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe('Other calculation is in progress. Please wait a moment');
    const zh = await post({ mode: 'cluster-markers', grouping: 'cluster' }, 'zh-CN');
    expect(zh.body.msg).toBe('其他计算正在进行中，请稍候');
    await exploreDegTasksRepo.finish(s.ctx.db, held!.id, 'failed', 'test');
    const ok = await post({ mode: 'cluster-markers', grouping: 'cluster' });
    expect(ok.status).toBe(200);
    expect((await waitTask(ok.body.data.id)).status).toBe('completed');
  });

  it("refuses another user's dataset and tasks", async () => {
    expect((await post({ mode: 'cluster-markers', grouping: 'cluster' }, 'en-US', other.token)).status).toBe(
      404,
    );
    expect((await s.request('GET', `${base}/deg_tasks`, { token: other.token })).status).toBe(404);
    const mine = (await s.request('GET', `${base}/deg_tasks`, { token: owner.token })).body.data[0];
    expect(
      (await s.request('GET', `${base}/deg_tasks/${mine.id}/result`, { token: other.token })).status,
    ).toBe(404);
  });
});
