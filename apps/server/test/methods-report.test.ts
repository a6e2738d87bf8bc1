import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisParams } from '@cellcloud/contracts/analysis-params';
import { cellScoreParams } from '@cellcloud/contracts/tasks/cell-score';
import { analysisTasksRepo } from '../src/db/repos/analysis-tasks';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

/**
 * Issue 21: the methods report lists the parameters that ran (a changed parameter appears changed,
 * unchanged ones marked default) for the analysis and a completed downstream task, in both
 * languages, with citations; another user's id is 404.
 */
describe('methods report', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let id: string;

  beforeAll(async () => {
    s = await createTestServer({ IN_PROCESS_WORKER: 'false' });
    owner = await testUser(s);
    other = await testUser(s);
    id = (await completedJobWithArtifacts(s, owner.user.id)).id;
    const params = analysisParams.parse({
      clusterResolution: 1.2,
      batchEffectRemoval: { enabled: true, method: 'mnn' },
    });
    await s.ctx.db.query('UPDATE analysis_jobs SET params = $2::text::jsonb WHERE id = $1', [
      id,
      JSON.stringify(params),
    ]);
    const task = await analysisTasksRepo.insert(s.ctx.db, {
      id: crypto.randomUUID(),
      userId: owner.user.id,
      datasetId: id,
      resultId: id,
      task: 'cell-score',
      params: cellScoreParams.parse({ builtinSet: 'tCell', nBins: 30 }),
      uploads: {},
      paramsHash: 'x',
      engineVersion: 'test-engine',
      outputPrefix: `results/${id}/tasks/t/`,
    });
    await s.ctx.db.query(
      `UPDATE analysis_tasks SET status = 'completed', finished_at = now() WHERE id = $1`,
      [task.id],
    );
  });
  afterAll(() => s?.close());

  it('lists the parameters that ran, marks defaults, includes the task and the citations (English)', async () => {
    const r = await s.request('GET', `/api/user_datasets/${id}/methods`, {
      token: owner.token,
      lang: 'en-US',
    });
    expect(r.status).toBe(200);
    const md = r.body.data.markdown as string;
    expect(md).toMatch(/^# Methods/);
    expect(md).toContain('`clusterResolution`: 1.2\n'); // changed: not marked default
    expect(md).toMatch(/`numberOfHighlyVariableGenes`: 2000 \(default\)/);
    expect(md).toContain('batch effects between "Sample ID" groups were corrected with MNN');
    expect(md).toContain('Cell score (AddModuleScore / UCell)');
    expect(md).toMatch(/`nBins`: 30\n/);
    expect(md).toMatch(/`nControl`: 100 \(default\)/);
    expect(md).toContain('Haghverdi L'); // MNN citation
    expect(md).toContain('Andreatta M'); // UCell citation
    expect(md).not.toContain('Korsunsky'); // Harmony did not run
  });

  it('is written in Chinese for a Chinese reader and downloads as Markdown', async () => {
    const r = await s.request('GET', `/api/user_datasets/${id}/methods`, {
      token: owner.token,
      lang: 'zh-CN',
    });
    const md = r.body.data.markdown as string;
    expect(md).toMatch(/^# 方法/);
    expect(md).toMatch(/`numberOfHighlyVariableGenes`: 2000 \(默认\)/);
    expect(md).toContain('细胞评分');
    const file = await s.request('GET', `/api/user_datasets/${id}/methods?format=md&lang=en-US`, {
      token: owner.token,
    });
    expect(file.headers['content-type']).toMatch(/text\/markdown/);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="methods-/);
  });

  it("answers another user's id with 404 and an anonymous call with 401", async () => {
    expect((await s.request('GET', `/api/user_datasets/${id}/methods`, { token: other.token })).status).toBe(
      404,
    );
    expect((await s.request('GET', `/api/user_datasets/${id}/methods`)).status).toBe(401);
  });
});
