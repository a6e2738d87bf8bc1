import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskOutputsView, TaskTablePage, TaskView } from '@cellcloud/contracts/tasks/api';
import type { enrich } from '@cellcloud/tasks/contract';
import { TASK_API } from '@cellcloud/contracts/tasks/api';
import type { JobEvent } from '@cellcloud/contracts/jobs';
import { figuresOf } from '../src/jobs/download.sources';
import { readFigureData } from '../src/jobs/figures/read';
import { resultFigures } from '../src/jobs/figures/result-figures';
import { jobsDeps } from '../src/services/jobs-wire';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { PBMC_H5AD, pbmcResult } from './support/pbmc-result';

/**
 * Analysis tasks through the API and the worker (issue 11), on the real pbmc3k data stored as a
 * completed result: cell score with an uploaded gene set completes in the memory-capped child,
 * its outputs are readable (JSON page, CSV, Range), an identical request is served from the cache,
 * a killed child is retried once and completes, a task over WORKER_MEMORY_MB is refused before
 * any child starts, a bad gene set file fails with the SPEC message in both languages, and another
 * user's dataset and task ids answer 404.
 */
const T_GENES = 'CD3D\nCD3E\nCD2\nIL7R\nLCK\nCD3G\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function waitTask(
  s: TestServer,
  token: string,
  datasetId: string,
  id: string,
  timeoutMs = 120_000,
): Promise<TaskView> {
  const end = Date.now() + timeoutMs;
  let last: TaskView | undefined;
  while (Date.now() < end) {
    last = (await s.request('GET', TASK_API.one(datasetId, id), { token })).body.data as TaskView;
    if (last && (last.status === 'completed' || last.status === 'failed')) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`task ${id} did not finish: ${JSON.stringify(last)}`);
}

async function waitChildPid(id: string): Promise<number> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const line = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .find((l) => l.includes(`runner-child.ts analysis.task ${id}`));
    if (line) return Number(line.trim().split(/\s+/)[0]);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no child process for task ${id}`);
}

describe.skipIf(!PBMC_H5AD)('analysis tasks: cell score on pbmc3k through the API', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let data: Awaited<ReturnType<typeof pbmcResult>>;
  const create = (body: object, token = owner.token, id = data.id, lang?: 'en-US' | 'zh-CN') =>
    s.request('POST', TASK_API.list(id), { token, body, lang });

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    data = await pbmcResult(s, owner.user.id, 'pbmc_tasks');
  }, 120_000);
  afterAll(() => s?.close());

  it('runs an uploaded gene set in the worker: per-cell table and obs columns, T cells score highest; identical runs are cached', async () => {
    const events: JobEvent[] = [];
    const unsubscribe = jobsDeps(s.ctx).events.subscribe(owner.user.id, (e) => events.push(e));
    const r = await create({
      task: 'cell-score',
      params: { name: 'T' },
      uploads: { geneSet: { fileName: 't.csv', base64: b64(T_GENES) } },
    });
    expect(r.status, r.raw).toBe(200);
    const done = await waitTask(s, owner.token, data.id, (r.body.data as TaskView).id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.uploads).toEqual({ geneSet: 't.csv' });
    await jobsDeps(s.ctx).events.pollNow();
    unsubscribe();
    expect(events.some((e) => e.type === 'task' && e.taskId === done.id && e.status === 'completed')).toBe(
      true,
    );
    const out = (await s.request('GET', TASK_API.outputs(data.id, done.id), { token: owner.token })).body
      .data as TaskOutputsView;
    expect(out.outputs.obs.map((o) => o.key)).toEqual(['T_ModuleScore', 'T_UCell']);
    expect((out.summary as { genesUsed: string[] }).genesUsed).toHaveLength(6);
    const page = (
      await s.request('GET', `${TASK_API.table(data.id, done.id, 'scores')}?offset=0&limit=10000`, {
        token: owner.token,
      })
    ).body.data as TaskTablePage;
    expect(page.columns).toEqual(['barcode', 'T_ModuleScore', 'T_UCell']);
    expect(page.total).toBe(data.barcodes.length);
    const byLabel = new Map<string, number[]>();
    page.rows.forEach(([b, score]) => {
      const l = data.labels[data.barcodes.indexOf(String(b))]!;
      byLabel.set(l, [...(byLabel.get(l) ?? []), Number(score)]);
    });
    const means = [...byLabel]
      .map(([l, v]) => [l, v.reduce((a, b) => a + b, 0) / v.length] as const)
      .sort((a, b) => b[1] - a[1]);
    expect(means[0]![0]).toMatch(/ T$/);
    const csv = await s.request('GET', `${TASK_API.table(data.id, done.id, 'scores')}?format=csv`, {
      token: owner.token,
    });
    expect(csv.raw.split('\n')[0]).toBe('barcode,T_ModuleScore,T_UCell');
    const obs = out.outputs.obs[0]!;
    const part = await s.request('GET', TASK_API.file(data.id, done.id, obs.file), {
      token: owner.token,
      headers: { range: 'bytes=0-7' },
    });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${4 * data.barcodes.length}`);

    const manifest = JSON.parse(
      (
        await s.request('GET', `/api/user_datasets/${data.id}/artifacts/manifest.json`, {
          token: owner.token,
        })
      ).raw,
    ) as { obs: { key: string; file: string }[] };
    const merged = manifest.obs.find((o) => o.key === 'T_UCell')!;
    expect(merged.file).toBe(`../tasks/${done.id}/files/obs/T_UCell.f32`);
    const resolved = new URL(merged.file, `http://x/api/user_datasets/${data.id}/artifacts/`).pathname;
    expect((await s.request('GET', resolved, { token: owner.token })).status).toBe(200);

    const again = (
      await create({
        task: 'cell-score',
        params: { name: 'T' },
        uploads: { geneSet: { fileName: 'copy.csv', base64: b64(T_GENES) } },
      })
    ).body.data as TaskView;
    expect(again).toMatchObject({ status: 'completed', cached: true });
    const list = (await s.request('GET', `${TASK_API.list(data.id)}?task=cell-score`, { token: owner.token }))
      .body.data as TaskView[];
    expect(list.map((t) => t.id)).toEqual([again.id, done.id]);
  }, 180_000);

  it("a layout computed on demand joins the result's embeddings in the explorer's manifest", async () => {
    const manifestOf = async () =>
      JSON.parse(
        (
          await s.request('GET', `/api/user_datasets/${data.id}/artifacts/manifest.json`, {
            token: owner.token,
          })
        ).raw,
      ) as { embeddings: { name: string; dims: number; file: string }[] };
    expect((await manifestOf()).embeddings.map((e) => e.name)).toEqual(['umap']);
    const r = await create({ task: 'layout', params: { layout: 'umap3D' } });
    expect(r.status, r.raw).toBe(200);
    const done = await waitTask(s, owner.token, data.id, (r.body.data as TaskView).id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const emb = (await manifestOf()).embeddings;
    expect(emb.map((e) => e.name)).toEqual(['umap', 'umap3D']);
    expect(emb[1]).toEqual({ name: 'umap3D', dims: 3, file: `../tasks/${done.id}/files/data/layout.f32` });
    // the file the explorer resolves against the artifacts URL: every cell, three Float32 each
    const resolved = new URL(emb[1]!.file, `http://x/api/user_datasets/${data.id}/artifacts/`).pathname;
    const bytes = await s.request('GET', resolved, { token: owner.token });
    expect(bytes.status).toBe(200);
    expect(Number(bytes.headers['content-length'])).toBe(12 * data.nCells);

    // a 2-D t-SNE computed the same way is drawn in the figures download like the analysis' UMAP
    const tsne = await create({ task: 'layout', params: { layout: 'tsne' } });
    expect(tsne.status, tsne.raw).toBe(200);
    const tsneDone = await waitTask(s, owner.token, data.id, (tsne.body.data as TaskView).id);
    expect(tsneDone.status, JSON.stringify(tsneDone)).toBe('completed');
    const figures = await readFigureData(s.ctx.storage, await figuresOf(s.ctx, data.id, data.id));
    expect(figures.embeddings.map((e) => [e.name, e.values.length])).toEqual([
      ['umap', 2 * data.nCells],
      ['tsne', 2 * data.nCells],
    ]);
    const drawn = await resultFigures(figures, (k) => k);
    expect(drawn.some((f) => f.name.includes('tsne'))).toBe(true);
  }, 300_000);

  it('step 2 builds on a finished step-1 run (sourceTaskId): enrich reads the deg-groups tables; a foreign or unfinished source is refused', async () => {
    const step1 = (
      await create({
        task: 'deg-groups',
        params: {
          group1: [{ key: 'label', values: ['B'] }],
          group2: [{ key: 'label', values: ['CD14+ Mono'] }],
        },
      })
    ).body.data as TaskView;
    const deg = await waitTask(s, owner.token, data.id, step1.id);
    expect(deg.status, JSON.stringify(deg)).toBe('completed');
    // no groups in the step-2 params: everything comes from the step-1 run
    const r = await create({ task: 'enrich', params: { sourceTaskId: deg.id, libraries: ['hallmark'] } });
    expect(r.status, r.raw).toBe(200);
    const done = await waitTask(s, owner.token, data.id, (r.body.data as TaskView).id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const out = (await s.request('GET', TASK_API.outputs(data.id, done.id), { token: owner.token })).body
      .data as TaskOutputsView;
    const summary = out.summary as enrich.EnrichSummary;
    const nB = data.labels.filter((l) => l === 'B').length;
    const degOut = (await s.request('GET', TASK_API.outputs(data.id, deg.id), { token: owner.token })).body
      .data as TaskOutputsView;
    expect(summary.group1).toEqual((degOut.summary as enrich.EnrichSummary).group1);
    expect(summary.group1.cells).toBe(nB);
    expect(summary.group2.cells).toBe(data.labels.filter((l) => l === 'CD14+ Mono').length);
    const filtered = (
      await s.request('GET', `${TASK_API.table(data.id, done.id, 'filtered_group1')}?limit=10000`, {
        token: owner.token,
      })
    ).body.data as TaskTablePage;
    expect(filtered.rows.map((row) => row[filtered.columns.indexOf('gene')])).toContain('CD79A');

    // a source that is not a finished deg-groups run of this dataset: refused, translated
    const cellScore = (
      await s.request('GET', `${TASK_API.list(data.id)}?task=cell-score`, { token: owner.token })
    ).body.data as TaskView[];
    for (const bad of [cellScore[0]?.id, '00000000-0000-4000-8000-000000000000']) {
      if (!bad) continue;
      const refused = await create(
        { task: 'enrich', params: { sourceTaskId: bad } },
        owner.token,
        data.id,
        'zh-CN',
      );
      expect(refused.status).toBe(400);
      expect(refused.raw).toContain('第一步结果');
    }
  }, 180_000);

  it('refuses bad requests with translated messages; a malformed gene set fails the task with the SPEC message', async () => {
    const badParams = await create({ task: 'cell-score', params: { builtinSet: 'tCell', nBins: 0 } });
    expect(badParams.status).toBe(400);
    expect(badParams.body.msg).toMatch(/nBins/);
    expect((await create({ task: 'no-such-task' })).status).toBe(404);
    const r = await create({
      task: 'cell-score',
      params: {},
      uploads: { geneSet: { fileName: 'bad.csv', base64: b64('gene,score\nCD3D,1\n') } },
    });
    const failed = await waitTask(s, owner.token, data.id, (r.body.data as TaskView).id);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/not valid: line 1 has 2 values.*one gene per line, no header/);
    const zh = (
      await s.request('GET', TASK_API.one(data.id, failed.id), { token: owner.token, lang: 'zh-CN' })
    ).body.data as TaskView;
    expect(zh.message).toMatch(/基因集文件无效.*请每行提供一个基因/);
    const outputs = await s.request('GET', TASK_API.outputs(data.id, failed.id), { token: owner.token });
    expect(outputs.status).toBe(409);
  }, 120_000);

  it("answers 404 for another user's dataset and task ids, and 403 without the task's permission", async () => {
    const mine = (await s.request('GET', TASK_API.list(data.id), { token: owner.token })).body
      .data as TaskView[];
    const id = mine[0]!.id;
    expect((await s.request('GET', TASK_API.list(data.id), { token: other.token })).status).toBe(404);
    expect((await s.request('GET', TASK_API.one(data.id, id), { token: other.token })).status).toBe(404);
    expect((await s.request('GET', TASK_API.outputs(data.id, id), { token: other.token })).status).toBe(404);
    expect((await s.request('DELETE', TASK_API.one(data.id, id), { token: other.token })).status).toBe(404);
    expect((await create({ task: 'cell-score', params: { builtinSet: 'tCell' } }, other.token)).status).toBe(
      404,
    );
    const theirs = await pbmcResult(s, other.user.id);
    expect((await s.request('GET', TASK_API.one(theirs.id, id), { token: other.token })).status).toBe(404);
    await s.ctx.db.query(
      `UPDATE plan_privileges SET disabled = true WHERE plan_id = 'synecosys' AND permission = 'exploreGeneExpression'`,
    );
    await s.ctx.db.query(`UPDATE users SET plan_id = 'synecosys' WHERE id = $1`, [other.user.id]);
    const refused = await create(
      { task: 'cell-score', params: { builtinSet: 'tCell' } },
      other.token,
      theirs.id,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/request a subscription/);
    expect((await s.request('DELETE', TASK_API.one(data.id, id), { token: owner.token })).status).toBe(200);
    expect((await s.request('GET', TASK_API.one(data.id, id), { token: owner.token })).status).toBe(404);
  }, 120_000);

  it('survives a killed child: the queue retries the task once and it completes', async () => {
    const r = await create({ task: 'cell-score', params: { builtinSet: 'bCell', name: 'B' } });
    const id = (r.body.data as TaskView).id;
    process.kill(await waitChildPid(id), 'SIGKILL');
    const done = await waitTask(s, owner.token, data.id, id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const rows = await s.ctx.db.query<{ attempt: number }>(
      'SELECT attempt FROM analysis_tasks WHERE id = $1',
      [id],
    );
    expect(rows[0]!.attempt).toBe(1);
  }, 180_000);
});

describe.skipIf(!PBMC_H5AD)('analysis tasks over the memory budget (WORKER_MEMORY_MB=256)', () => {
  let s: TestServer;
  afterAll(() => s?.close());
  it('refuses the task up front with the budget message, no child started', async () => {
    s = await createTestServer({ WORKER_MEMORY_MB: '256' });
    const u = await testUser(s);
    const d = await pbmcResult(s, u.user.id);
    const r = await s.request('POST', TASK_API.list(d.id), {
      token: u.token,
      body: { task: 'cell-score', params: { builtinSet: 'tCell' } },
    });
    const t = await waitTask(s, u.token, d.id, (r.body.data as TaskView).id);
    expect(t.status).toBe('failed');
    expect(t.message).toMatch(/needs about \d+ MB of memory, more than the 256 MB/);
    const ps = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' });
    expect(ps).not.toContain(`analysis.task ${t.id}`);
  }, 120_000);
});
