import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisParams } from '@cellcloud/contracts/analysis-params';
import { cellScore } from '@cellcloud/tasks/contract';
import { analysisTasksRepo } from '../src/db/repos/analysis-tasks';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

/**
 * Issue 21: the methods report lists the parameters that ran (a changed parameter appears changed,
 * unchanged ones marked default) for the analysis and a completed downstream task, in both
 * languages, with citations; another user's id is 404.
 */
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
if (!hasPdftotext)
  console.warn(
    '⚠ methods PDF text check skipped: pdftotext is not installed (apt-get install poppler-utils)',
  );

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
      params: cellScore.cellScoreParams.parse({ builtinSet: 'tCell', nBins: 30 }),
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

  it.skipIf(!hasPdftotext)('downloads as a PDF in both languages, with the changed parameter', async () => {
    const text: Record<string, string> = {};
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const r = await s.app.inject({
        method: 'GET',
        url: `/api/user_datasets/${id}/methods?format=pdf&lang=${lang}`,
        headers: { 'access-token': owner.token },
      });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(r.headers['content-disposition']).toMatch(
        new RegExp(`attachment; filename="methods-.*-${lang}\\.pdf"`),
      );
      expect(r.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const out = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], {
        input: r.rawPayload,
        encoding: 'utf8',
      });
      expect(out.status, out.stderr).toBe(0);
      text[lang] = out.stdout.replace(/\s+/g, ' ');
    }
    expect(text['en-US']).toContain('Methods');
    expect(text['en-US']).toMatch(/• clusterResolution ?: 1\.2 (?!\(default\))/); // changed: not marked default
    expect(text['en-US']).toMatch(/numberOfHighlyVariableGenes ?: 2000 \(default\)/);
    expect(text['en-US']).toContain('Haghverdi L');
    // Chinese text survives only with the CJK font embedded
    expect(text['zh-CN']).toContain('方法');
    expect(text['zh-CN']).toContain('细胞评分');
    expect(text['zh-CN']).toMatch(/clusterResolution ?: 1\.2 (?!\(默认\))/);
    expect(text['zh-CN']).toMatch(/numberOfHighlyVariableGenes ?: 2000 \(默认\)/);
  });

  it("answers another user's id with 404 and an anonymous call with 401", async () => {
    expect((await s.request('GET', `/api/user_datasets/${id}/methods`, { token: other.token })).status).toBe(
      404,
    );
    expect((await s.request('GET', `/api/user_datasets/${id}/methods`)).status).toBe(401);
  });
});
