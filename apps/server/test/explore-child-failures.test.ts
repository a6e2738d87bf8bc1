import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { ChildTaskView, DegTaskView } from '@cellcloud/contracts/explore-deg';
import { createTestServer } from './support/harness';
import { diagnostic, jobRow, testUser, waitJob } from './support/jobs';
import { completedJobWithH5ad, waitDegTask } from './support/explore-deg';

/**
 * The explorer's job-backed computations (analysis.deg, analysis.subcluster) run in a
 * memory-capped child process: over the budget they are refused up front with a translated
 * message, and a child that dies (killed here with SIGKILL, as the kernel's OOM killer would)
 * fails only its task — the worker and the API keep serving.
 */

/** Pid of the analysis child computing `kind` for `id` (runner-child-process.ts puts both in its argv). */
async function waitChildPid(kind: string, id: string): Promise<number> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const line = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .find((l) => l.includes(`runner-child.ts ${kind} ${id}`));
    if (line) return Number(line.trim().split(/\s+/)[0]);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no child process for ${kind} ${id}`);
}

async function setup(env: Record<string, string> = {}) {
  const s = await createTestServer(env);
  const owner = await testUser(s);
  const parentId = (await completedJobWithH5ad(s, owner.user.id, 60, 300)).id;
  const base = `/api/user_datasets/${parentId}`;
  const subsetId = (
    await s.request('POST', `${base}/observation_subset`, {
      token: owner.token,
      body: { from: 'copy', name: 'clusters_copy', key: 'cluster' },
    })
  ).body.data.id as string;
  const waitTask = (id: string) => waitDegTask(s, owner.token, base, id);
  const startDeg = async () =>
    (
      await s.request('POST', `${base}/calculate_deg_task`, {
        token: owner.token,
        body: { mode: 'cluster-markers', grouping: 'cluster' },
      })
    ).body.data as DegTaskView;
  const startChild = async () =>
    (
      await s.request('POST', `${base}/subcluster_task`, {
        token: owner.token,
        body: { key: `subset:${subsetId}`, labels: ['0', '1'] },
      })
    ).body.data as ChildTaskView;
  const settled = (id: string, lang: 'en-US' | 'zh-CN' = 'en-US') =>
    waitJob(s, owner.token, id, (j) => j.status === 'completed' || j.status === 'error', 120_000).then(
      async (j) =>
        lang === 'en-US'
          ? j
          : (await s.request('GET', `/api/jobs/${id}`, { token: owner.token, lang })).body.data,
    );
  return { s, owner, base, waitTask, startDeg, startChild, settled };
}

describe('explorer child tasks over the memory budget (WORKER_MEMORY_MB=256)', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup({ WORKER_MEMORY_MB: '256' });
  });
  afterAll(() => t?.s.close());

  it('refuses a DE calculation up front: the task ends failed with the budget message', async () => {
    const task = await t.startDeg();
    const done = await t.waitTask(task.id);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(
      /^This calculation needs about \d+ MiB but a worker may use 256 MiB; ask the administrator to raise WORKER_MEMORY_MB\.$/,
    );
    const res = await t.s.request('GET', `${t.base}/deg_tasks/${task.id}/result`, {
      token: t.owner.token,
      lang: 'zh-CN',
    });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('簇差异基因计算失败，请重试。');
  });

  it("refuses a sub-celltype analysis at once (no retry), in the reader's language; the worker keeps working", async () => {
    const child = await t.startChild();
    const en = await t.settled(child.childId);
    expect(en.status).toBe('error');
    expect(en.message).toMatch(
      /^This sub-celltype analysis needs about \d+ MiB but a worker may use 256 MiB; select fewer cells/,
    );
    const zh = await t.settled(child.childId, 'zh-CN');
    expect(zh.message).toMatch(/^该亚细胞类型分析约需 \d+ MiB 内存，而计算节点上限为 256 MiB/);
    expect((await jobRow(t.s, child.childId)).attempt).toBe(0);
    // the same worker still runs jobs
    const d = await diagnostic(t.s, t.owner.user.id, 'after_refusal', { sleepMs: 100 });
    expect((await t.settled(d.id)).status).toBe('completed');
  });
});

describe('explorer child tasks whose child process dies', () => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup();
  });
  afterAll(() => t?.s.close());

  it('a killed DE child fails only its task; the next calculation completes in the same worker', async () => {
    const task = await t.startDeg();
    process.kill(await waitChildPid('analysis.deg', task.id), 'SIGKILL');
    const done = await t.waitTask(task.id);
    expect(done.status).toBe('failed');
    expect(done.message).toBe(
      'The analysis process ended unexpectedly (SIGKILL); it may have run out of memory.',
    );
    const again = await t.startDeg();
    expect((await t.waitTask(again.id)).status).toBe('completed');
    const rows = (
      await t.s.request('GET', `${t.base}/deg_tasks/${again.id}/result`, { token: t.owner.token })
    ).body as unknown as DegRow[];
    expect(rows.filter((r) => r.cluster === '0')[0]!.gene).toBe('CD3D');
  });

  it('a killed sub-celltype child is retried by the queue and its result published', async () => {
    const child = await t.startChild();
    process.kill(await waitChildPid('analysis.subcluster', child.childId), 'SIGKILL');
    const job = await t.settled(child.childId);
    expect(job.status).toBe('completed');
    expect((await jobRow(t.s, child.childId)).attempt).toBeGreaterThanOrEqual(1);
    const manifest = await t.s.request('GET', `/api/user_datasets/${child.childId}/artifacts/manifest.json`, {
      token: t.owner.token,
    });
    expect((manifest.body as unknown as { nCells: number }).nCells).toBe(120);
  });
});
