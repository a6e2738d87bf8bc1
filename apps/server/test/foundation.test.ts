import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCatalogs } from '../src/i18n/translate';
import { loadConfig, ConfigError } from '../src/config';
import { splitSql } from '../src/db/migrate';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';

describe(`foundation on ${TEST_DB}`, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
  });
  afterAll(async () => s?.close());

  it('reports health of database, storage and queue', async () => {
    const r = await s.request('GET', '/api/health');
    expect(r.body.data.database).toMatchObject({ ok: true, kind: TEST_DB });
    expect(r.body.data.storage).toMatchObject({ ok: true, kind: 'local' });
    expect(r.body.code).toBe(r.status);
  });

  it('serves an OpenAPI document generated from the zod contracts', async () => {
    const r = await s.request('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.raw);
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/health');
    const ui = await s.request('GET', '/api/docs/');
    expect(ui.status).toBe(200);
    expect(ui.raw).toContain('swagger');
  });

  it('answers unknown API paths with a translated 404 envelope', async () => {
    const en = await s.request('GET', '/api/nope', { lang: 'en-US' });
    expect(en.status).toBe(404);
    expect(en.body).toMatchObject({ code: 404, msg: 'Resource does not exist' });
    const zh = await s.request('GET', '/api/nope', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.body.msg).toBe('资源不存在');
  });

  it('applies migrations once and records them', async () => {
    const rows = await s.ctx.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toContain('0001_meta.sql');
  });

  it('rolls back a failed transaction', async () => {
    await expect(
      s.ctx.db.tx(async (q) => {
        await q.query(`INSERT INTO app_meta(key, value) VALUES ('tx-test', '1')`);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await s.ctx.db.query(`SELECT * FROM app_meta WHERE key = 'tx-test'`)).toHaveLength(0);
  });

  it('serializes concurrent statements and transactions', async () => {
    await s.ctx.db.query(`INSERT INTO app_meta(key, value) VALUES ('counter', '0')`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        s.ctx.db.tx(async (q) => {
          const [row] = await q.query<{ value: number }>(
            `SELECT value FROM app_meta WHERE key = 'counter' FOR UPDATE`,
          );
          await q.query(`UPDATE app_meta SET value = $1 WHERE key = 'counter'`, [
            JSON.stringify(Number(row!.value) + 1),
          ]);
        }),
      ),
    );
    const [row] = await s.ctx.db.query<{ value: number }>(`SELECT value FROM app_meta WHERE key = 'counter'`);
    expect(Number(row!.value)).toBe(20);
  });

  it('storage writes atomically and refuses path traversal keys', async () => {
    await s.ctx.storage.put('raw/x/a.txt', new TextEncoder().encode('hello'));
    expect((await s.ctx.storage.stat('raw/x/a.txt'))?.size).toBe(5);
    expect(await s.ctx.storage.list('raw/x')).toEqual(['raw/x/a.txt']);
    await expect(s.ctx.storage.put('../evil', new Uint8Array(1))).rejects.toThrow(/invalid storage key/);
    await s.ctx.storage.delete('raw/x/');
    expect(await s.ctx.storage.list('raw/x')).toEqual([]);
  });
});

describe('configuration and catalogs', () => {
  it('rejects a bad environment with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({}).port).toBe(8080);
  });

  it('has the same message keys in zh-CN and en-US', () => {
    const c = allCatalogs();
    expect(Object.keys(c['zh-CN']).sort()).toEqual(Object.keys(c['en-US']).sort());
  });

  it('splits migration scripts into statements', () => {
    expect(
      splitSql(
        '-- c\nCREATE TABLE a (x int);\nCREATE FUNCTION f() RETURNS int AS $$\nBEGIN\n RETURN 1;\nEND;\n$$ LANGUAGE plpgsql;\n',
      ),
    ).toHaveLength(2);
  });
});
