import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analysisParams, draftToParams, draftParam } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentEngineVersion, resultCacheKey } from '../src/services/jobs-cache';
import { resolveSamples } from '../src/services/jobs-samples';
import { uploadSample, waitParsed } from './files-helpers';
import { createTestServer, type TestServer } from './support/harness';
import { testUser, waitJob } from './support/jobs';

/**
 * The result cache keys on the engine identity (issue 32, docs/reproducibility.md): a completed
 * result whose key was made by another engine (an older hand-written "0.4.0", or any other
 * identity) is not handed back; the same submission under the running engine's identity is.
 * Real server, database and worker: the tiny sample's runs stop at the filters (3 genes), so the
 * first run's row is marked completed in the table, under one key or another.
 */
describe('result cache and the engine identity', () => {
  let s: TestServer;
  let token: string;
  let userId: string;
  let uploadId: string;
  const resources = mkdtempSync(path.join(tmpdir(), 'cellcloud-resources-'));
  const draft = () => ({
    datasets: [{ id: uploadId, name: 'tiny', group: 'g1' }],
    param: { jobName: 'identity_run' },
  });
  const cacheKeyOf = async (id: string) =>
    (
      await s.ctx.db.query<{ cache_key: string }>('SELECT cache_key FROM analysis_jobs WHERE id = $1', [id])
    )[0]!.cache_key;
  const complete = (id: string, cacheKey: string) =>
    s.ctx.db.query(
      `UPDATE analysis_jobs SET status = 'completed', progress = 1, finished_at = now(), cache_key = $2 WHERE id = $1`,
      [id, cacheKey],
    );

  beforeAll(async () => {
    mkdirSync(path.join(resources, 'gene_sets'));
    writeFileSync(path.join(resources, 'gene_sets/h.gmt'), 'SET\tna\tCD3D\tNKG7\n');
    s = await createTestServer({ WORKER_CONCURRENCY: '1', CELLCLOUD_RESOURCES_DIR: resources });
    await s.listen();
    const u = await testUser(s);
    token = u.token;
    userId = u.user.id;
    const enc = new TextEncoder();
    const n = 40;
    const mtx = `%%MatrixMarket matrix coordinate integer general\n3 ${n} ${n}\n${Array.from({ length: n }, (_, j) => `${1 + (j % 3)} ${j + 1} ${1 + (j % 5)}`).join('\n')}\n`;
    const barcodes = Array.from({ length: n }, (_, j) =>
      j
        .toString(4)
        .padStart(14, '0')
        .replace(/[0-3]/g, (d) => 'ACGT'[Number(d)]!),
    );
    const up = await uploadSample(s, token, 'tiny', [
      { name: 'matrix.mtx', bytes: enc.encode(mtx) },
      {
        name: 'features.tsv',
        bytes: enc.encode(
          'ENSG00000167286\tCD3D\tGene Expression\nENSG00000105374\tNKG7\tGene Expression\nENSG00000090382\tLYZ\tGene Expression\n',
        ),
      },
      { name: 'barcodes.tsv', bytes: enc.encode(barcodes.map((b) => `${b}-1`).join('\n') + '\n') },
    ]);
    expect((await waitParsed(s, token, up.id)).state).toBe('completed');
    uploadId = up.id;
  });
  afterAll(async () => {
    await s?.close();
    rmSync(resources, { recursive: true, force: true });
  });

  it('does not reuse a result cached under another engine identity, and reuses one of its own', async () => {
    const engine = currentEngineVersion(resources);
    expect(engine).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    // the identity covers the resources folder the server is configured with
    expect(currentEngineVersion(path.join(resources, 'gene_sets'))).not.toBe(engine);

    const first = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(first.status).toBe(200);
    expect(first.body.data.cached).toBe(false);
    const firstId = first.body.data.id as string;
    const settled = (id: string) =>
      waitJob(s, token, id, (j) => j.status === 'error' || j.status === 'completed', 120_000);
    await settled(firstId);
    const samples = (await resolveSamples(s.ctx, userId, draft().datasets)).map((x) => ({
      contentHash: x.contentHash,
      name: x.name,
      group: x.group,
    }));
    const params = analysisParams.parse(draftToParams(draftParam.parse(draft().param), 'Homo sapiens'));
    const current = resultCacheKey({ samples, params }, engine);
    expect(await cacheKeyOf(firstId)).toBe(current);

    // the same inputs finished by an older engine (the hand-written version the cache used to key on)
    await complete(firstId, resultCacheKey({ samples, params }, '0.4.0'));
    const again = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(again.body.data.cached).toBe(false);
    expect(again.body.data.resultId).not.toBe(firstId);
    await settled(again.body.data.id);

    // …or by the same version with other sources/resources (another content hash)
    await complete(firstId, resultCacheKey({ samples, params }, engine.replace(/\+.*/, '+000000000000')));
    const third = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(third.body.data.cached).toBe(false);
    await settled(third.body.data.id);

    // control: finished by the running engine → reused at once
    await complete(firstId, current);
    const reused = await s.request('POST', '/api/jobs', { token, body: draft() });
    expect(reused.body.data.status).toBe('completed');
    expect(reused.body.data.cached).toBe(true);
    expect(reused.body.data.resultId).toBe(firstId);
  });
});
