import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { schemaSampler, type Schema } from './support/openapi-sample';

/**
 * Sharing authorization matrix (issue 35), generated from the live OpenAPI document like
 * security-authz-matrix.test.ts: every operation under /api/user_datasets/{id} is called on the
 * owner's analysis as anonymous, another user, a viewer, an editor and the owner.
 *  - anonymous → 401; another user → the same answer as for an id that never existed;
 *  - viewer and editor reads answer what the owner's read answers (share management: 403);
 *  - a viewer's change is refused with 403 (or the same 400 the editor gets for the body);
 *  - an editor's change is never refused for its role (share management excepted);
 * then the owner revokes the viewer's share and the viewer's next request answers 404.
 */
interface Op {
  method: string;
  path: string;
  body?: Schema;
}
interface Answer {
  status: number;
  error?: string;
  msg: string;
}

/** POSTs that only read (the product's dataset read calls with a body). */
const READ_POSTS = [/\/embedding$/, /\/observation_gene$/];
/** Share management: the owner only. */
const OWNER_ONLY = /\/shares(\/|$)/;

describe(`sharing: role matrix from the OpenAPI document on ${TEST_DB}`, () => {
  let s: TestServer;
  let doc: Schema;
  let ops: Op[] = [];
  const users: Record<
    'owner' | 'viewer' | 'editor' | 'other',
    { token: string; user: { id: string; username: string } }
  > = {} as never;
  const values: Record<string, string> = {};
  let viewerShare = '';

  let sample: (x: Schema | undefined) => unknown = () => undefined;

  const urlOf = (op: Op, v: Record<string, string>) =>
    op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      name === '*' ? v[name]! : encodeURIComponent(v[name] ?? 'x'),
    );

  async function call(method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { 'x-lang': 'en-US' };
    if (token) headers['access-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await s.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    let error: string | undefined;
    let msg = '';
    try {
      const j = r.json();
      error = j?.data?.error;
      msg = j?.msg ?? '';
    } catch {
      error = undefined;
    }
    return { status: r.statusCode, error, msg };
  }

  beforeAll(async () => {
    s = await createTestServer();
    for (const k of ['owner', 'viewer', 'editor', 'other'] as const) users[k] = await testUser(s);
    doc = (await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    sample = schemaSampler(doc, values);
    for (const [path, item] of Object.entries<Schema>(doc.paths)) {
      if (!path.startsWith('/api/user_datasets/{id}')) continue;
      for (const [method, op] of Object.entries<Schema>(item))
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
          ops.push({
            method: method.toUpperCase(),
            path,
            body: op.requestBody?.content?.['application/json']?.schema,
          });
    }
    ops = ops.filter((o) => !/svg-to-tiff/.test(o.path));
    const job = await completedJobWithArtifacts(s, users.owner.user.id);
    const base = `/api/user_datasets/${job.id}`;
    const own = { token: users.owner.token };
    const subset = await s.request('POST', `${base}/observation_subset`, {
      ...own,
      body: { from: 'copy', name: 'Curated', key: 'cluster' },
    });
    expect(subset.status).toBe(200);
    const v = await s.request('POST', `${base}/shares`, {
      ...own,
      body: { user: users.viewer.user.username, role: 'viewer' },
    });
    const e = await s.request('POST', `${base}/shares`, {
      ...own,
      body: { user: `${users.editor.user.username}@example.org`, role: 'editor' },
    });
    expect([v.status, e.status]).toEqual([200, 200]);
    viewerShare = v.body.data.id;
    Object.assign(values, {
      id: job.id,
      subsetId: subset.body.data.id,
      shareId: e.body.data.id,
      taskId: randomUUID(),
      level: `subset:${subset.body.data.id}`,
      version: '1',
      '*': 'manifest.json',
      key: 'cluster',
    });
  });
  afterAll(() => s?.close());

  it('covers the dataset-scoped operations of the document', () => {
    expect(ops.length).toBeGreaterThan(25);
    expect(ops.some((o) => o.path.endsWith('/shares/{shareId}') && o.method === 'PATCH')).toBe(true);
    expect(ops.some((o) => o.path.endsWith('/history'))).toBe(true);
  });

  it('anonymous, other user, viewer, editor and owner get what their role allows', async () => {
    const problems: string[] = [];
    const counts = { reads: 0, writes: 0, editorChanged: 0 };
    const missing = { ...values, id: randomUUID() };
    // reads first (nothing changes), then changes: the viewer's (all refused), then the editor's
    const reads = ops.filter((o) => o.method === 'GET' || READ_POSTS.some((r) => r.test(o.path)));
    const writes = ops
      .filter((o) => !reads.includes(o))
      .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    for (const op of [...reads, ...writes]) {
      const key = `${op.method} ${op.path}`;
      const url = urlOf(op, values);
      const body = op.body ? sample(op.body) : undefined;
      const anon = await call(op.method, url, undefined, body);
      if (anon.status !== 401) problems.push(`${key} anonymous → ${anon.status}`);
      const other = await call(op.method, url, users.other.token, body);
      const control = await call(op.method, urlOf(op, missing), users.other.token, body);
      if (other.status !== control.status || other.error !== control.error || other.status < 300)
        problems.push(`${key} other user → ${other.status} ${other.error}, missing → ${control.status}`);
      const viewer = await call(op.method, url, users.viewer.token, body);
      if (reads.includes(op)) {
        counts.reads++;
        const owner = await call(op.method, url, users.owner.token, body);
        const editor = await call(op.method, url, users.editor.token, body);
        for (const [who, a] of [
          ['viewer', viewer],
          ['editor', editor],
        ] as const) {
          if (OWNER_ONLY.test(op.path)) {
            if (a.status !== 403) problems.push(`${key} ${who} → ${a.status}, expected 403 (owner only)`);
          } else if (a.status !== owner.status || a.error !== owner.error)
            problems.push(`${key} ${who} → ${a.status} ${a.error}, owner → ${owner.status} ${owner.error}`);
        }
      } else {
        counts.writes++;
        const editor = await call(op.method, url, users.editor.token, body);
        if (editor.status < 300) counts.editorChanged++;
        if (viewer.status < 300) problems.push(`${key} viewer changed the dataset (${viewer.status})`);
        else if (viewer.status !== 403 && !(viewer.status === 400 && editor.status === 400))
          problems.push(`${key} viewer → ${viewer.status} ${viewer.error}, editor → ${editor.status}`);
        if (OWNER_ONLY.test(op.path)) {
          if (editor.status !== 403 && editor.status !== 400)
            problems.push(`${key} editor → ${editor.status}, expected 403 (owner only)`);
        } else if (editor.error === 'FORBIDDEN' || (editor.status === 404 && !editor.error))
          problems.push(`${key} editor refused: ${editor.status} ${editor.error} ${editor.msg}`);
      }
    }
    console.log(`[sharing matrix] ${ops.length} operations: ${JSON.stringify(counts)}`);
    expect(problems).toEqual([]);
    expect(counts.writes).toBeGreaterThan(8);
    expect(counts.editorChanged).toBeGreaterThanOrEqual(3);
  });

  it('a revoked viewer gets 404 at the next request, like any other user', async () => {
    const url = `/api/user_datasets/${values.id}/observation_annotation`;
    expect((await call('GET', url, users.viewer.token)).status).toBe(200);
    const shared = await s.request('GET', '/api/shared_datasets', { token: users.viewer.token });
    expect(shared.body.data).toMatchObject([
      { datasetId: values.id, role: 'viewer', owner: { username: users.owner.user.username } },
    ]);
    const del = await call(
      'DELETE',
      `/api/user_datasets/${values.id}/shares/${viewerShare}`,
      users.owner.token,
    );
    expect(del.status).toBe(200);
    const after = await call('GET', url, users.viewer.token);
    expect([after.status, after.error]).toEqual([404, 'NOT_FOUND']);
    const list = await s.request('GET', '/api/shared_datasets', { token: users.viewer.token });
    expect(list.body.data).toEqual([]);
  });
});
