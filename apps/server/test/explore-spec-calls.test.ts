import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specCallPaths } from '@cellcloud/contracts/explore-spec-calls';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

/**
 * Issue 22 item 9: the docs/product/api.md#dataset-calls dataset calls under their own names answer the owner with the
 * stored data (checked against what the fixture wrote), another user with 404 and an anonymous
 * caller with 401.
 */
describe('docs/product/api.md#dataset-calls dataset calls (embedding, observation_gene, observation_display, …)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let id: string;
  const markers: DegRow[] = [
    {
      cluster: '0',
      gene: 'CD3D',
      avgExpr: 1.2,
      log2fc: 2.5,
      pct1: 1,
      pct2: 0.5,
      zscore: 3.1,
      pval: 0.001,
      padj: 0.003,
    },
  ];

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    id = (await completedJobWithArtifacts(s, owner.user.id, { markers: { cluster: markers } })).id;
  });
  afterAll(() => s?.close());

  const calls = () =>
    [
      ['POST', specCallPaths.embedding(id), { name: 'umap' }],
      ['GET', `${specCallPaths.embeddingView2(id)}?name=umap`, undefined],
      ['POST', specCallPaths.observationGene(id), { gene: 'LYZ', layer: 'counts' }],
      ['GET', specCallPaths.observationDisplay(id), undefined],
      ['GET', `${specCallPaths.observationAnnotationView2(id)}?key=cluster`, undefined],
      ['GET', `${specCallPaths.differentialExpression(id)}?groupBy=cluster`, undefined],
    ] as const;

  it('answers the owner with the stored data', async () => {
    const [emb, emb2, gene, display, annot, de] = await Promise.all(
      calls().map(([m, url, body]) => s.request(m, url, { token: owner.token, ...(body ? { body } : {}) })),
    );
    for (const r of [emb, emb2, gene, display, annot, de]) expect(r!.status).toBe(200);
    expect(emb!.body.data).toEqual({
      name: 'umap',
      dims: 2,
      nCells: 4,
      coordinates: [0, 0, 1, 1, 2, 2, 3, 3],
    });
    expect(emb2!.body.data).toEqual(emb!.body.data);
    // LYZ (gene 2) has counts 7 in cell 1 and 2 in cell 3
    expect(gene!.body.data).toMatchObject({
      symbol: 'LYZ',
      id: 'G3',
      layer: 'counts',
      cells: [1, 3],
      values: [7, 2],
    });
    expect(display!.body.data.levels).toEqual(
      expect.arrayContaining([
        { kind: 'categorical', key: 'cluster', labels: ['0', '1'], counts: [2, 2] },
        { kind: 'numeric', key: 'total_counts', min: 0, max: 8 },
      ]),
    );
    expect(annot!.body.data).toEqual({
      kind: 'categorical',
      key: 'cluster',
      labels: ['0', '1'],
      codes: [0, 1, 1, 0],
    });
    expect(de!.body.data).toEqual({ groupBy: 'cluster', rows: markers });
  });

  it('takes observation_gene as a form, and returns blobs with format=binary', async () => {
    const form = await s.request('POST', specCallPaths.observationGene(id), {
      token: owner.token,
      form: true,
      body: { gene: 'cd3d', layer: 'counts' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data).toMatchObject({ symbol: 'CD3D', layer: 'counts', cells: [0, 1], values: [5, 1] });
    await s.listen();
    const res = await fetch(`${s.url}${specCallPaths.embeddingView2(id)}?format=binary`, {
      headers: { 'access-token': owner.token },
    });
    expect(res.status).toBe(200);
    expect(Array.from(new Float32Array(await res.arrayBuffer()))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('answers unknown genes and levels with a translated 404', async () => {
    const r = await s.request('POST', specCallPaths.observationGene(id), {
      token: owner.token,
      lang: 'zh-CN',
      body: { gene: 'NOPE1', layer: 'counts' },
    });
    expect(r.status).toBe(404);
    expect(r.body.msg).toContain('NOPE1');
    expect(
      (
        await s.request('GET', `${specCallPaths.observationAnnotationView2(id)}?key=nope`, {
          token: owner.token,
        })
      ).status,
    ).toBe(404);
  });

  it("hides another user's dataset (404) and needs a token (401)", async () => {
    for (const [m, url, body] of calls()) {
      expect(
        (await s.request(m, url, { token: other.token, ...(body ? { body } : {}) })).status,
        `${m} ${url}`,
      ).toBe(404);
      expect((await s.request(m, url, body ? { body } : {})).status, `${m} ${url}`).toBe(401);
    }
  });
});
