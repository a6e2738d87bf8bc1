import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSample, waitParsed } from './files-helpers';
import { completedJobWithArtifacts } from './support/explore';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { schemaSampler, type Schema } from './support/openapi-sample';

/**
 * Authorization matrix generated from the live OpenAPI document (issue 12, "make it systematic").
 * Every operation with a path parameter is called with user A's real values
 *  - anonymously → 401 when the document marks it authenticated (access-token security), else
 *    (a public operation such as a signed download link) the answer for a missing resource;
 *  - as user B → exactly the answer B gets for a never-used value of the same shape (status and
 *    error code, and the body when it is a 2xx), and never a 5xx: B cannot tell A's resources from
 *    nothing, let alone read or change them;
 * and A's resources are checked intact afterwards. Nothing is listed by hand: A's values come
 * from crawling A's own GET answers (lists, then details) after a generic fixture pass that calls
 * every collection POST with a body generated from its schema, so endpoints added later are
 * covered without anyone remembering to add them.
 */

interface Op {
  method: string;
  path: string;
  params: string[];
  body?: Schema;
  /** The document lists an access-token requirement (authenticated route). */
  secured: boolean;
}
interface Answer {
  status: number;
  error?: string;
  body: string;
}

/** Collection POSTs the fixture pass must not call (sessions, mail, expensive conversions). */
const NO_FIXTURE_POST = [/\/account\//, /svg-to-tiff/, /\/sendMessage/, /contactUS/i];
/** Streams that never end (server-sent events). */
const STREAMS = [/\/events$/];

const isIdLike = (k: string) => k === 'id' || k === 'slot' || /Id$/.test(k);

describe(`security: authorization matrix from the OpenAPI document on ${TEST_DB}`, () => {
  let s: TestServer;
  let a: { token: string; user: { id: string } };
  let b: { token: string };
  let doc: Schema;
  let ops: Op[] = [];
  /** Values of A by parameter name (from A's answers) and every id-like value seen. */
  const live = new Map<string, Set<string>>();
  const pool = new Set<string>();
  const report = {
    operations: 0,
    calls: 0,
    publicCalls: 0,
    b401: 0,
    b403: 0,
    b404: 0,
    b400: 0,
    bSame2xx: 0,
    skipped: [] as string[],
  };

  let sample: (x: Schema | undefined) => unknown = () => undefined;

  /** Same shape, different value: digits → digits, hex → hex, letters → letters. */
  const sameShape = (v: string) =>
    v.replace(/[0-9a-zA-Z]/g, (c) => {
      if (/[0-9]/.test(c)) return String(Math.floor(Math.random() * 10));
      if (/[a-f]/.test(c)) return 'abcdef'[Math.floor(Math.random() * 6)]!;
      if (/[A-F]/.test(c)) return 'ABCDEF'[Math.floor(Math.random() * 6)]!;
      return c === c.toLowerCase()
        ? 'xyz'[Math.floor(Math.random() * 3)]!
        : 'XYZ'[Math.floor(Math.random() * 3)]!;
    });

  const urlOf = (op: Op, values: Record<string, string>) =>
    op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      name === '*' ? values[name]! : encodeURIComponent(values[name]!),
    );

  async function call(method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { 'x-lang': 'en-US' };
    if (token) headers['access-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await Promise.race([
      s.app.inject({
        method: method as 'GET',
        url,
        headers,
        payload: body === undefined ? undefined : JSON.stringify(body),
      }),
      new Promise<undefined>((res) => setTimeout(() => res(undefined), 15_000)),
    ]);
    if (!r) return { status: -1, body: 'timeout' };
    let error: string | undefined;
    try {
      error = r.json()?.data?.error;
    } catch {
      error = undefined;
    }
    return { status: r.statusCode, error, body: r.body };
  }

  /** Records A's id-like values of a JSON answer, by field name. */
  function harvest(raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const walk = (v: unknown, depth: number) => {
      if (depth > 8 || v === null || typeof v !== 'object') return;
      if (Array.isArray(v)) return v.slice(0, 50).forEach((x) => walk(x, depth + 1));
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string' && x.length >= 1 && x.length <= 200 && isIdLike(k)) {
          pool.add(x);
          if (!live.has(k)) live.set(k, new Set());
          live.get(k)!.add(x);
        } else walk(x, depth + 1);
      }
    };
    walk(json, 0);
  }

  /** Values to try for a parameter: A's values of that name, else every id-like value of A. */
  const candidates = (name: string): string[] => {
    if (name === '*') return ['manifest.json'];
    const named = live.get(name);
    return [...(named && named.size ? named : pool)].slice(0, 12);
  };

  const assignments = (op: Op): Record<string, string>[] => {
    let out: Record<string, string>[] = [{}];
    for (const p of op.params) {
      const next: Record<string, string>[] = [];
      for (const partial of out) for (const v of candidates(p)) next.push({ ...partial, [p]: v });
      out = next.slice(0, 16);
    }
    return out;
  };

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    a = await testUser(s);
    b = await testUser(s);
    doc = (await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    sample = schemaSampler(doc);
    for (const [path, item] of Object.entries<Schema>(doc.paths)) {
      for (const [method, op] of Object.entries<Schema>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        ops.push({
          method: method.toUpperCase(),
          path,
          params,
          body: op.requestBody?.content?.['application/json']?.schema,
          secured: Array.isArray(op.security) && op.security.length > 0,
        });
      }
    }
    ops = ops.filter((o) => !STREAMS.some((r) => r.test(o.path)));

    // Fixtures of A through the real API: a parsed sample, a completed analysis result, then every
    // collection POST (also under A's live values) with a generated body.
    const mtx = `%%MatrixMarket matrix coordinate integer general\n3 40 40\n${Array.from({ length: 40 }, (_, j) => `${1 + (j % 3)} ${j + 1} ${1 + (j % 5)}`).join('\n')}\n`;
    const barcodes = Array.from(
      { length: 40 },
      (_, j) =>
        `${j
          .toString(4)
          .padStart(14, '0')
          .replace(/[0-3]/g, (d) => 'ACGT'[Number(d)]!)}-1`,
    ).join('\n');
    const enc = new TextEncoder();
    const up = await uploadSample(s, a.token, 'authz_sample', [
      { name: 'matrix.mtx', bytes: enc.encode(mtx) },
      {
        name: 'features.tsv',
        bytes: enc.encode(
          'ENSG00000167286\tCD3D\tGene Expression\nENSG00000105374\tNKG7\tGene Expression\nENSG00000090382\tLYZ\tGene Expression\n',
        ),
      },
      { name: 'barcodes.tsv', bytes: enc.encode(barcodes + '\n') },
    ]);
    await waitParsed(s, a.token, up.id);
    await completedJobWithArtifacts(s, a.user.id);
    const crawl = async () => {
      for (const op of ops.filter((o) => o.method === 'GET')) {
        for (const values of op.params.length ? assignments(op) : [{}]) {
          const r = await call('GET', urlOf(op, values), a.token);
          if (r.status >= 200 && r.status < 300) {
            harvest(r.body);
            for (const [k, v] of Object.entries(values)) {
              if (!live.has(k)) live.set(k, new Set());
              live.get(k)!.add(v);
            }
          }
        }
      }
    };
    await crawl();
    for (const op of ops.filter(
      (o) => o.method === 'POST' && !/\}$/.test(o.path) && !NO_FIXTURE_POST.some((r) => r.test(o.path)),
    )) {
      for (const values of op.params.length ? assignments(op).slice(0, 2) : [{}]) {
        const r = await call('POST', urlOf(op, values), a.token, op.body ? sample(op.body) : undefined);
        if (r.status >= 200 && r.status < 300) harvest(r.body);
      }
    }
    await crawl();
  });
  afterAll(async () => {
    console.log(
      `[authz matrix] ${JSON.stringify(report)}; A's values: ${[...live.entries()].map(([k, v]) => `${k}×${v.size}`).join(', ')}`,
    );
    await s?.close();
  });

  it('found A’s resources to attack (uploads, analyses, …); the document marks authenticated operations', () => {
    expect(ops.filter((o) => o.params.length).length).toBeGreaterThan(20);
    expect(ops.filter((o) => o.secured).length).toBeGreaterThan(ops.length / 2);
    expect(live.get('id')?.size ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('every operation with a path parameter: anonymous → 401; another user → indistinguishable from a missing resource', async () => {
    const before = new Map<string, number>();
    const gets = ops.filter((o) => o.method === 'GET' && o.params.length);
    for (const op of gets)
      for (const v of assignments(op))
        before.set(urlOf(op, v), (await call('GET', urlOf(op, v), a.token)).status);

    const problems: string[] = [];
    // Destructive methods last, so a hole in one does not hide the others.
    const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const withParams = ops
      .filter((o) => o.params.length)
      .sort((x, y) => order.indexOf(x.method) - order.indexOf(y.method));
    for (const op of withParams) {
      report.operations++;
      const key = `${op.method} ${op.path}`;
      const body = op.body ? sample(op.body) : undefined;
      const tries = assignments(op);
      if (tries.length === 0) report.skipped.push(key);
      for (const values of tries) {
        const url = urlOf(op, values);
        const control = urlOf(
          op,
          Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k === '*' ? v : sameShape(v)])),
        );
        report.calls++;
        const anon = await call(op.method, url, undefined, body);
        if (op.secured) {
          if (anon.status !== 401) problems.push(`${key} anonymous ${url} → ${anon.status}`);
        } else {
          // A public operation (e.g. a signed download link): anonymous callers get the same
          // indistinguishability check as another user.
          report.publicCalls++;
          const anonMissing = await call(op.method, control, undefined, body);
          if (
            anon.status >= 500 ||
            anon.status !== anonMissing.status ||
            anon.error !== anonMissing.error ||
            (anon.status < 300 && anon.body !== anonMissing.body)
          )
            problems.push(
              `${key} anonymous: A's ${url} → ${anon.status} ${anon.error ?? ''}, a missing one → ${anonMissing.status} ${anonMissing.error ?? ''}`,
            );
        }
        const asB = await call(op.method, url, b.token, body);
        const missing = await call(op.method, control, b.token, body);
        if (asB.status >= 500 || asB.status < 0)
          problems.push(`${key} as B ${url} → ${asB.status} ${asB.body.slice(0, 120)}`);
        else if (asB.status !== missing.status || asB.error !== missing.error)
          problems.push(
            `${key} as B: A's ${url} → ${asB.status} ${asB.error ?? ''}, a missing one → ${missing.status} ${missing.error ?? ''}`,
          );
        else if (asB.status >= 200 && asB.status < 300 && asB.body !== missing.body)
          problems.push(
            `${key} as B ${url} → ${asB.status} with a body that differs from a missing resource's`,
          );
        else if (asB.status === 401) report.b401++;
        else if (asB.status === 403) report.b403++;
        else if (asB.status === 404) report.b404++;
        else if (asB.status === 400) report.b400++;
        else report.bSame2xx++;
      }
    }
    // A's resources are intact (no DELETE/PUT of B went through).
    for (const [url, status] of before) {
      const now = (await call('GET', url, a.token)).status;
      if (now !== status) problems.push(`A's ${url} answered ${status} before B's calls and ${now} after`);
    }
    expect(problems).toEqual([]);
    expect(report.b404 + report.b403).toBeGreaterThan(report.calls / 2);
  });
});
