import { TASK_API, type TaskView } from '@cellcloud/contracts/tasks/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEngineVersion } from '../src/services/jobs-cache';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * The task cache keys on the engine identity too (issue 32, docs/reproducibility.md): a completed
 * run of the same task, parameters and uploads recorded under another engine (the hand-written
 * "0.4.0") is not reused; under the running engine's identity it is. Real server and database, no
 * worker (the first run stays queued; "completed" is set in the table).
 */
describe('task cache and the engine identity', () => {
  let s: TestServer;
  let token: string;
  let datasetId: string;
  const body = {
    task: 'cell-score',
    params: { name: 'T' },
    uploads: { geneSet: { fileName: 't.csv', base64: Buffer.from('CD3D\nLYZ\n').toString('base64') } },
  };
  const create = async () =>
    (await s.request('POST', TASK_API.list(datasetId), { token, body })).body.data as TaskView;
  const finish = async (id: string, engine: string) => {
    const [row] = await s.ctx.db.query<{ output_prefix: string }>(
      `UPDATE analysis_tasks SET status = 'completed', progress = 1, finished_at = now(), engine_version = $2
       WHERE id = $1 RETURNING output_prefix`,
      [id, engine],
    );
    await s.ctx.storage.put(`${row!.output_prefix}outputs.json`, new TextEncoder().encode('{}'));
  };

  beforeAll(async () => {
    s = await createTestServer({ IN_PROCESS_WORKER: 'false' });
    const u = await testUser(s);
    token = u.token;
    datasetId = (await completedJobWithArtifacts(s, u.user.id)).id;
  });
  afterAll(() => s?.close());

  it('does not reuse a run of another engine identity, and reuses one of its own', async () => {
    const first = await create();
    expect(first.cached).toBe(false);
    await finish(first.id, '0.4.0');
    const second = await create();
    expect(second.cached).toBe(false);
    expect(second.id).not.toBe(first.id);

    await finish(first.id, currentEngineVersion(s.ctx.config.resourcesDir));
    const third = await create();
    expect(third).toMatchObject({ status: 'completed', cached: true });
  });
});
