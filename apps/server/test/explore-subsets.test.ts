import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_IN_SUBSET } from '@cellcloud/contracts/explore';
import { relabel, restrict } from '../src/services/explore/relabel';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { completedJobWithArtifacts } from './support/explore';

describe('explorer subsets (observation_subset, edit, merge, map_cell_type, color manager)', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let other: Awaited<ReturnType<typeof testUser>>;
  let base: string;
  const post = (path: string, body: unknown, lang: 'en-US' | 'zh-CN' = 'en-US') =>
    s.request('POST', `${base}/${path}`, { token: owner.token, body, lang });

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    other = await testUser(s);
    base = `/api/user_datasets/${(await completedJobWithArtifacts(s, owner.user.id)).id}`;
  });
  afterAll(() => s?.close());

  it('creates a subset from lassoed cells and serves its per-cell codes', async () => {
    const r = await post('observation_subset', {
      from: 'cells',
      name: 'T_selection',
      label: 'T',
      cells: [0, 3],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: 'T_selection',
      labels: ['T'],
      counts: [2],
      nCells: 2,
      clusterGenes: 'none',
      hasChildTasks: false,
    });
    await s.listen();
    const res = await fetch(`${s.url}${base}/observation_subset/${r.body.data.id}/codes`, {
      headers: { 'access-token': owner.token },
    });
    expect(Array.from(new Uint32Array(await res.arrayBuffer()))).toEqual([
      0,
      NOT_IN_SUBSET,
      NOT_IN_SUBSET,
      0,
    ]);
  });

  it('copies an annotation level and refuses a taken or invalid name', async () => {
    const copy = await post('observation_subset', { from: 'copy', name: 'clusters_copy', key: 'cluster' });
    expect(copy.body.data).toMatchObject({ sourceKey: 'cluster', labels: ['0', '1'], counts: [2, 2] });
    const taken = await post(
      'observation_subset',
      { from: 'copy', name: 'CLUSTERS_copy', key: 'cluster' },
      'zh-CN',
    );
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toContain('已存在');
    expect((await post('observation_subset', { from: 'copy', name: '1bad', key: 'cluster' })).status).toBe(
      400,
    );
    expect((await post('observation_subset', { from: 'copy', name: 'x', key: 'total_counts' })).status).toBe(
      400,
    );
    const sub = await post('observation_subset', {
      from: 'labels',
      name: 'only_1',
      key: 'cluster',
      labels: ['1'],
    });
    expect(sub.body.data).toMatchObject({ labels: ['1'], counts: [2], nCells: 2 });
    const list = await s.request('GET', `${base}/observation_subset`, { token: owner.token });
    expect(list.body.data.map((x: { name: string }) => x.name)).toEqual([
      'T_selection',
      'clusters_copy',
      'only_1',
    ]);
  });

  it('recolours with #RRGGBB only and never two clusters of a subset with one colour', async () => {
    const id = (await s.request('GET', `${base}/observation_subset`, { token: owner.token })).body.data[1].id;
    const ok = await post('observation_color_manager', { subsetId: id, colours: { '0': '#FF0000' } });
    expect(ok.body.data.colours).toEqual(['#ff0000', null]);
    const dup = await post('observation_color_manager', { subsetId: id, colours: { '1': '#ff0000' } });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toContain('cannot share a colour');
    expect((await post('observation_color_manager', { subsetId: id, colours: { '1': 'red' } })).status).toBe(
      400,
    );
    const got = await s.request('GET', `${base}/observation_color_manager?subsetId=${id}`, {
      token: owner.token,
    });
    expect(got.body.data).toEqual({ labels: ['0', '1'], colours: ['#ff0000', null] });
    const one = await s.request('GET', `${base}/observation_edit_subset?subsetId=${id}`, {
      token: owner.token,
    });
    expect(one.body.data).toMatchObject({ id, name: 'clusters_copy' });
  });

  it('maps labels to cell types, merges clusters (cluster genes become stale) and renames', async () => {
    const id = (await s.request('GET', `${base}/observation_subset`, { token: owner.token })).body.data[1].id;
    const mapped = await post('map_cell_type', { subsetId: id, mapping: { '0': 'T cells', '1': 'B cells' } });
    expect(mapped.body.data).toMatchObject({
      labels: ['T cells', 'B cells'],
      counts: [2, 2],
      clusterGenes: 'none',
    });
    const merged = await post('observation_merge_subset', {
      subsetId: id,
      labels: ['T cells', 'B cells'],
      into: 'Lymphocytes',
    });
    expect(merged.body.data).toMatchObject({
      labels: ['Lymphocytes'],
      counts: [4],
      colours: ['#ff0000'],
      clusterGenes: 'stale',
    });
    const renamed = await post('observation_edit_subset', { subsetId: id, name: 'lymphocytes' });
    expect(renamed.body.data.name).toBe('lymphocytes');
  });

  it('refuses to delete or rename a subset with child tasks (SPEC message), then deletes it once free', async () => {
    const id = (await s.request('GET', `${base}/observation_subset`, { token: owner.token })).body.data[0].id;
    await s.ctx.db.query('UPDATE explore_subsets SET child_tasks = 1 WHERE id = $1', [id]);
    const del = await s.request('DELETE', `${base}/observation_subset/${id}`, { token: owner.token });
    expect(del.status).toBe(409);
    expect(del.body.msg).toBe('The subset has subtasks, so it cannot be deleted or renamed.');
    expect((await post('observation_edit_subset', { subsetId: id, name: 'other_name' })).status).toBe(409);
    await s.ctx.db.query('UPDATE explore_subsets SET child_tasks = 0 WHERE id = $1', [id]);
    expect(
      (await s.request('DELETE', `${base}/observation_subset/${id}`, { token: owner.token })).status,
    ).toBe(200);
    expect(
      (await s.request('GET', `${base}/observation_subset`, { token: owner.token })).body.data,
    ).toHaveLength(2);
  });

  it('keeps other users out', async () => {
    expect((await s.request('GET', `${base}/observation_subset`, { token: other.token })).status).toBe(404);
  });
});

describe('relabel', () => {
  const src = {
    labels: ['a', 'b', 'c'],
    colours: ['#111111', null, '#333333'],
    codes: Uint32Array.from([0, 1, 2, NOT_IN_SUBSET, 1]),
  };
  it('merges labels that get one name and keeps the first colour', () => {
    const r = relabel(src, (l) => (l === 'c' ? 'a' : l));
    expect(r.labels).toEqual(['a', 'b']);
    expect(r.colours).toEqual(['#111111', null]);
    expect(Array.from(r.codes)).toEqual([0, 1, 0, NOT_IN_SUBSET, 1]);
    expect(r.counts).toEqual([2, 2]);
    expect(r.merged).toBe(true);
  });
  it('restricts to some labels', () => {
    const r = restrict(src, new Set(['b']));
    expect(r.labels).toEqual(['b']);
    expect(Array.from(r.codes)).toEqual([NOT_IN_SUBSET, 0, NOT_IN_SUBSET, NOT_IN_SUBSET, 0]);
  });
});
