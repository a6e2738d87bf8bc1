import { analysisParams } from '@cellcloud/contracts/analysis-params';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEngineVersion } from '../src/services/jobs-cache';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * The methods report names the engine identity the result was computed with and its seed (issue 32,
 * docs/reproducibility.md), in both languages: the identity as the result's manifest records it
 * (`<version>+<content hash>`, what run-analysis writes), the seed of the stored parameters.
 */
describe('methods report: engine identity and seed', () => {
  let s: TestServer;
  let token: string;
  let id: string;
  let engine: string;

  beforeAll(async () => {
    s = await createTestServer({ IN_PROCESS_WORKER: 'false' });
    const u = await testUser(s);
    token = u.token;
    id = (await completedJobWithArtifacts(s, u.user.id)).id;
    engine = currentEngineVersion(s.ctx.config.resourcesDir);
    const key = `results/${id}/artifacts/manifest.json`;
    const manifest = JSON.parse(new TextDecoder().decode(await s.ctx.storage.getBytes(key))) as object;
    await s.ctx.storage.put(
      key,
      new TextEncoder().encode(JSON.stringify({ ...manifest, engineVersion: engine })),
    );
    await s.ctx.db.query('UPDATE analysis_jobs SET params = $2::text::jsonb WHERE id = $1', [
      id,
      JSON.stringify(analysisParams.parse({ seed: 7 })),
    ]);
  });
  afterAll(() => s?.close());

  it.each([
    ['en-US', 'seed 7'],
    ['zh-CN', '随机种子 7'],
  ] as const)('%s', async (lang, seed) => {
    const r = await s.request('GET', `/api/user_datasets/${id}/methods`, { token, lang });
    expect(r.status).toBe(200);
    const head = (r.body.data.markdown as string).split('\n').slice(0, 4).join('\n');
    expect(engine).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(head).toContain(engine);
    expect(head).toContain(seed);
  });
});
