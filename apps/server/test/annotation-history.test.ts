import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';

/**
 * Attributed annotation (issue 35): every change of a saved level is recorded with its author,
 * the cells affected and the before → after labels; an earlier version can be restored; labels
 * carry notes and marker genes; two editors saving the same version concurrently: one wins, the
 * other gets 409 naming the winner and the current version (translated), nothing is overwritten.
 */
describe(`annotation history and concurrent saves on ${TEST_DB}`, () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let editor: Awaited<ReturnType<typeof testUser>>;
  let base: string;
  let subsetId: string;
  const codes = async (token: string) => {
    const r = await s.app.inject({
      method: 'GET',
      url: `${base}/observation_subset/${subsetId}/codes`,
      headers: { 'access-token': token },
    });
    return [...new Uint32Array(new Uint8Array(r.rawPayload).buffer)];
  };

  beforeAll(async () => {
    s = await createTestServer();
    owner = await testUser(s);
    editor = await testUser(s);
    const job = await completedJobWithArtifacts(s, owner.user.id);
    base = `/api/user_datasets/${job.id}`;
    const share = await s.request('POST', `${base}/shares`, {
      token: owner.token,
      body: { user: editor.user.username, role: 'editor' },
    });
    expect(share.status).toBe(200);
    // the owner saves a level: cluster (0,1,1,0) with 0 → T cell
    const saved = await s.request('POST', `${base}/observation_annotation`, {
      token: owner.token,
      body: { key: 'cluster', name: 'Curated', renames: { '0': 'T cell' } },
    });
    expect(saved.status).toBe(200);
    subsetId = saved.body.data.id;
  });
  afterAll(() => s?.close());

  it('records author, cells and before → after labels of each change; restores an earlier version', async () => {
    const v0 = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subsetId}`, { token: editor.token })
    ).body.data;
    expect(v0.labels).toEqual(['T cell', '1']);
    // the editor merges the two labels
    const merged = await s.request('POST', `${base}/observation_merge_subset`, {
      token: editor.token,
      body: { subsetId, labels: ['T cell', '1'], into: 'Lymphocyte', expectedVersion: v0.version },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.data.labels).toEqual(['Lymphocyte']);
    expect(merged.body.data.version).toBe(v0.version + 1);

    const level = encodeURIComponent(`subset:${subsetId}`);
    const history = (
      await s.request('GET', `${base}/annotation_levels/${level}/history`, { token: owner.token })
    ).body.data;
    expect(history.map((h: { action: string }) => h.action)).toEqual(['relabel', 'relabel', 'create']);
    const last = history[0];
    expect(last.author.username).toBe(editor.user.username);
    expect(last.cells).toBe(4);
    expect(last.changes).toEqual(
      expect.arrayContaining([
        { before: 'T cell', after: 'Lymphocyte', cells: 2 },
        { before: '1', after: 'Lymphocyte', cells: 2 },
      ]),
    );
    expect(history[1].author.username).toBe(owner.user.username);
    expect(history[1].changes).toEqual([{ before: '0', after: 'T cell', cells: 2 }]);

    // the owner restores the version before the merge
    const restored = await s.request(
      'POST',
      `${base}/annotation_levels/${level}/history/${history[1].version}/restore`,
      {
        token: owner.token,
        body: { expectedVersion: last.version },
      },
    );
    expect(restored.status).toBe(200);
    expect(restored.body.data.labels).toEqual(['T cell', '1']);
    expect(restored.body.data.counts).toEqual([2, 2]);
    expect(await codes(editor.token)).toEqual([0, 1, 1, 0]);
    const after = (
      await s.request('GET', `${base}/annotation_levels/${level}/history`, { token: editor.token })
    ).body.data[0];
    expect([after.action, after.restoredFrom, after.author.username, after.cells]).toEqual([
      'restore',
      history[1].version,
      owner.user.username,
      4,
    ]);
  });

  it('keeps a note and marker genes per label, shown to collaborators; a viewer cannot write one', async () => {
    const cur = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subsetId}`, { token: owner.token })
    ).body.data;
    const r = await s.request('POST', `${base}/observation_label_note`, {
      token: editor.token,
      body: {
        subsetId,
        label: 'T cell',
        note: 'CD3D high',
        markers: ['CD3D', 'CD3E'],
        expectedVersion: cur.version,
      },
    });
    expect(r.status).toBe(200);
    const seen = (
      await s.request('GET', `${base}/observation_subset`, { token: owner.token })
    ).body.data.find((x: { id: string }) => x.id === subsetId);
    expect(seen.notes['T cell']).toEqual({ note: 'CD3D high', markers: ['CD3D', 'CD3E'] });
    const viewer = await testUser(s);
    await s.request('POST', `${base}/shares`, {
      token: owner.token,
      body: { user: viewer.user.username, role: 'viewer' },
    });
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const refused = await s.request('POST', `${base}/observation_label_note`, {
        token: viewer.token,
        lang,
        body: { subsetId, label: 'T cell', note: 'no', markers: [] },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toMatch(lang === 'en-US' ? /viewer/ : /查看者/);
    }
  });

  it('two editors saving the same version at once: one wins, the other gets 409 with the winner and version', async () => {
    const cur = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subsetId}`, { token: owner.token })
    ).body.data;
    const [a, b] = await Promise.all([
      s.request('POST', `${base}/observation_edit_subset`, {
        token: owner.token,
        body: { subsetId, renames: { '1': 'B cell' }, expectedVersion: cur.version },
      }),
      s.request('POST', `${base}/observation_edit_subset`, {
        token: editor.token,
        lang: 'zh-CN',
        body: { subsetId, renames: { '1': 'Monocyte' }, expectedVersion: cur.version },
      }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const [win, lose] = a.status === 200 ? [a, b] : [b, a];
    const winner = a.status === 200 ? owner : editor;
    expect(lose.body.data.error).toBe('CONFLICT');
    expect(lose.body.data.version).toBe(cur.version + 1);
    expect(lose.body.data.author).toBe(winner.user.username);
    expect(lose.body.msg).toContain(winner.user.username);
    expect(lose.body.msg).not.toMatch(/\{|\[object/);
    // the level holds the winner's labels only
    const now = (
      await s.request('GET', `${base}/observation_edit_subset?subsetId=${subsetId}`, { token: owner.token })
    ).body.data;
    expect(now.labels).toEqual(win.body.data.labels);
    expect(now.version).toBe(cur.version + 1);
    // a stale save later is refused the same way
    const stale = await s.request('POST', `${base}/observation_edit_subset`, {
      token: editor.token,
      body: { subsetId, renames: { 'T cell': 'T' }, expectedVersion: cur.version },
    });
    expect(stale.status).toBe(409);
  });
});
