import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOADS_API } from '@cellcloud/contracts/downloads';
import { MY_FILES_API, type ProjectGroupView, type ResultFileView } from '@cellcloud/contracts/my-files';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

/**
 * My Analyses "Result files" and "Project files" (issue 21): the user's result files with sizes
 * and a requestable kind (the request goes through POST /api/downloads), task tables included,
 * viewer chunks left out, nothing of another user; CeleScope imports grouped by project.
 */
describe('my files tabs', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof testUser>>;
  let b: Awaited<ReturnType<typeof testUser>>;
  let jobId: string;

  beforeAll(async () => {
    s = await createTestServer();
    a = await testUser(s);
    b = await testUser(s);
    jobId = (await completedJobWithArtifacts(s, a.user.id)).id;
    await s.ctx.storage.put(
      `results/${jobId}/markers.csv`,
      new TextEncoder().encode('cluster,gene\n0,CD3D\n'),
    );
    const prefix = `results/${jobId}/tasks/t1/`;
    await s.ctx.db.query(
      `INSERT INTO analysis_tasks (id, user_id, dataset_id, result_id, task, params, params_hash, engine_version, status, output_prefix, finished_at)
       VALUES ('t1', $1, $2, $2, 'cell-score', '{}', 'h', 'test', 'completed', $3, now())`,
      [a.user.id, jobId, prefix],
    );
    await s.ctx.storage.put(`${prefix}tables/scores.csv`, new TextEncoder().encode('cell,score\nA,1\n'));
    await s.ctx.storage.put(`${prefix}obs/score.f32`, new Uint8Array(16));
    for (const name of ['P1_S1', 'P1_S2', 'lonely']) {
      await s.ctx.db.query(
        `INSERT INTO uploads (user_id, sample_name, kind, format_hint, state, retryable, total_size) VALUES ($1, $2, 'celescope', 'celescope', $3, $4, 100)`,
        [a.user.id, name, name === 'P1_S2' ? 'failed' : 'completed', name === 'P1_S2'],
      );
    }
  });
  afterAll(() => s?.close());

  it('lists result and task files with sizes; a requestable file goes through a download request', async () => {
    const r = await s.request('GET', MY_FILES_API.results, { token: a.token });
    const rows = r.body.data as ResultFileView[];
    const names = rows.map((f) => (f.task ? `${f.task}:${f.fileName}` : f.fileName)).sort();
    expect(names).toEqual(['analysis.h5ad', 'cell-score:tables/scores.csv', 'markers.csv']);
    const h5ad = rows.find((f) => f.fileName === 'analysis.h5ad')!;
    expect(h5ad.size).toBe('HDF5-placeholder-bytes'.length);
    expect(h5ad.downloadKind).toBe('h5ad');
    expect(rows.find((f) => f.task)!.downloadKind).toBeNull();
    const d = await s.request('POST', DOWNLOADS_API.create, {
      token: a.token,
      body: { datasetId: h5ad.datasetId, kind: 'markers' },
    });
    expect(d.status).toBe(200);
    const other = await s.request('GET', MY_FILES_API.results, { token: b.token });
    expect(other.body.data).toEqual([]);
  });

  it('groups CeleScope imports by project; only a failed one can be re-imported', async () => {
    const r = await s.request('GET', MY_FILES_API.projects, { token: a.token });
    const groups = r.body.data as ProjectGroupView[];
    expect(groups.map((g) => [g.project, g.samples.map((x) => x.sampleName)])).toEqual([
      ['P1', ['P1_S1', 'P1_S2']],
      ['lonely', ['lonely']],
    ]);
    expect(groups[0]!.samples.map((x) => x.retryable)).toEqual([false, true]);
    expect((await s.request('GET', MY_FILES_API.projects, { token: b.token })).body.data).toEqual([]);
    expect((await s.request('GET', MY_FILES_API.projects)).status).toBe(401);
  });
});
