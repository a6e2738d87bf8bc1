import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeArtifacts } from '@cellcloud/formats';
import { jobsRepo } from '../src/db/repos/jobs';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/** docs/product/api.md#annotation-calls annotation calls (issue 13) on a small stored result with docs/product/entities.md#annotation-levels levels. */
describe('annotation levels (observation_annotation, embedding_annotation, celltype_hierarchy2)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let base: string;

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    const job = await jobsRepo.insert(s.ctx.db, {
      userId: owner.user.id,
      jobName: 'annot_test',
      kind: 'custom',
      species: 'Homo sapiens',
      sampleIds: [],
      params: {},
      draft: {},
      cacheKey: null,
    });
    const counts = {
      nGenes: 1,
      nCells: 6,
      indptr: Float64Array.from([0, 1, 2, 3, 4, 5, 6]),
      indices: new Uint32Array(6),
      data: Float32Array.from([1, 2, 3, 4, 5, 6]),
    };
    const cat = (values: string[]) => ({ kind: 'categorical' as const, values });
    await writeArtifacts(
      {
        engineVersion: 'test',
        species: 'Homo sapiens',
        genes: { ids: ['G1'], symbols: ['CD3D'] },
        nCells: 6,
        layers: { counts },
        embeddings: { umap: { dims: 2, values: new Float32Array(12) } },
        obs: {
          cluster: cat(['0', '0', '0', '1', '1', '1']),
          annot_full: cat(['T cell', 'T cell', 'T cell', 'B cell', 'B cell', 'B cell']),
          annot_sub: cat(['CD4 T', 'CD4 T', 'CD8 T', 'Naive B', 'Naive B', 'Memory B']),
          annot_auto: cat(['CD4 naive T', 'CD4 naive T', 'CD8 effector T', 'B', 'B', 'NK']),
        },
      },
      { write: (path, bytes) => s.ctx.storage.put(`results/${job.id}/artifacts/${path}`, bytes) },
    );
    await jobsRepo.setStatus(s.ctx.db, job.id, ['submitted'], 'completed');
    base = `/api/user_datasets/${job.id}`;
  });
  afterAll(() => s?.close());

  it('lists the levels, saves a hand edit (rename + merge) as a new level, and lists it too', async () => {
    const levels = await s.request('GET', `${base}/observation_annotation`, { token: owner.token });
    expect(levels.status).toBe(200);
    const auto = levels.body.data.find((l: { key: string }) => l.key === 'annot_auto');
    expect(auto).toMatchObject({
      source: 'analysis',
      labels: ['B', 'CD4 naive T', 'CD8 effector T', 'NK'],
      counts: [2, 2, 1, 1],
    });
    const saved = await s.request('POST', `${base}/observation_annotation`, {
      token: owner.token,
      body: { key: 'annot_auto', name: 'my_labels', renames: { 'CD4 naive T': 'T', 'CD8 effector T': 'T' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: 'my_labels', labels: ['B', 'T', 'NK'], counts: [2, 3, 1] });
    const after = await s.request('GET', `${base}/observation_annotation`, { token: owner.token });
    expect(after.body.data.at(-1)).toMatchObject({ name: 'my_labels', source: 'saved' });
    // docs/product/validation.md#annotation-and-cluster-names name rules, translated
    const bad = await s.request('POST', `${base}/embedding_annotation`, {
      token: owner.token,
      lang: 'zh-CN',
      body: { key: 'annot_auto', name: '1abc' },
    });
    expect(bad.status).toBe(400);
    expect((await s.request('GET', `${base}/observation_annotation`, { token: other.token })).status).toBe(
      404,
    );
  });

  it('gives the majority label per cluster with its confidence, and the annot_full → annot_sub hierarchy', async () => {
    const e = await s.request('GET', `${base}/embedding_annotation?key=annot_auto&clusterKey=cluster`, {
      token: owner.token,
    });
    expect(e.body.data.clusters).toEqual([
      { cluster: '0', cells: 3, label: 'CD4 naive T', confidence: 2 / 3 },
      { cluster: '1', cells: 3, label: 'B', confidence: 2 / 3 },
    ]);
    const h = await s.request('GET', `${base}/celltype_hierarchy2`, { token: owner.token });
    expect(h.body.data.levels).toEqual(['annot_full', 'annot_sub']);
    expect(h.body.data.nodes).toContainEqual({
      level: 'annot_sub',
      label: 'CD8 T',
      cells: 1,
      parent: { level: 'annot_full', label: 'T cell' },
    });
    expect(h.body.data.nodes).toContainEqual({
      level: 'annot_full',
      label: 'B cell',
      cells: 3,
      parent: null,
    });
  });
});
