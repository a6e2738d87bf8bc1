import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { migratedPgliteDump } from '../../src/db/pglite';
import { closeContext, composeContext } from '../../src/entry/compose';
import { buildApp, type ZodApp } from '../../src/http/app';

/**
 * Integration-test harness. Each call builds a real server on its own scratch database:
 * PGlite in memory (CELLCLOUD_TEST_DB=pglite, default) or a freshly created PostgreSQL
 * database (CELLCLOUD_TEST_DB=postgres, admin URL CELLCLOUD_TEST_PG_URL), dropped on close.
 */
export const TEST_DB = (process.env.CELLCLOUD_TEST_DB ?? 'pglite') as 'pglite' | 'postgres';
const ADMIN_URL = process.env.CELLCLOUD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestServer {
  app: ZodApp;
  ctx: AppContext;
  dataDir: string;
  databaseUrl?: string;
  /** Base URL once `listen()` was called. */
  url?: string;
  listen(): Promise<string>;
  request(method: string, url: string, opts?: RequestOpts): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface RequestOpts {
  body?: unknown;
  token?: string;
  lang?: 'en-US' | 'zh-CN';
  headers?: Record<string, string>;
  form?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read many routes' JSON loosely; a route's test may pass its type
export interface ApiResponse<T = any> {
  status: number;
  body: { code: number; msg: string; data: T };
  headers: Record<string, unknown>;
  raw: string;
}

export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cellcloud_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let template: Promise<Blob> | undefined;

/**
 * The migrated PGlite database every scratch database starts from (src/db/pglite.ts
 * migratedPgliteDump), made once per machine and migration set: a file in the temporary folder
 * named by a hash of the migrations and the PGlite version, shared by the test files and
 * workers (each file has its own module state). Saves ~2.2 CPU s per createTestServer.
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const migrations = path.join(here, '../../src/db/migrations');
    const hash = createHash('sha256');
    for (const f of readdirSync(migrations).sort()) {
      hash.update(f);
      hash.update(readFileSync(path.join(migrations, f)));
    }
    const pglitePkg = path.join(here, '../../../../node_modules/@electric-sql/pglite/package.json');
    if (existsSync(pglitePkg)) hash.update(readFileSync(pglitePkg));
    const file = path.join(os.tmpdir(), `cellcloud-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const dump = await migratedPgliteDump();
    const tmp = `${file}.${process.pid}.part`;
    writeFileSync(tmp, new Uint8Array(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  return template;
}

export async function createTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-test-'));
  const scratch = TEST_DB === 'postgres' ? await createScratchDatabase() : undefined;
  const config = loadConfig({
    CELLCLOUD_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    // Reference resources a test points at through the environment (e.g. sharedData('gene_ids')).
    ...(process.env.ENSEMBL_GENE_LISTS_DIR
      ? { ENSEMBL_GENE_LISTS_DIR: process.env.ENSEMBL_GENE_LISTS_DIR }
      : {}),
    ...env,
  });
  const ctx = await composeContext(config, {
    pgliteDir: null,
    ...(scratch ? {} : { pgliteTemplate: await pgliteTemplate() }),
  });
  const app = await buildApp(ctx, { logger: false });
  const server: TestServer = {
    app,
    ctx,
    dataDir,
    databaseUrl: scratch?.url,
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const a = app.server.address();
      server.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
      return server.url;
    },
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers['access-token'] = opts.token;
      if (opts.lang) headers['x-lang'] = opts.lang;
      let payload: string | undefined;
      if (opts.body !== undefined) {
        if (opts.form) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          payload = new URLSearchParams(opts.body as Record<string, string>).toString();
        } else {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(opts.body);
        }
      }
      const r = await app.inject({ method: method as 'GET', url, headers, payload });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the route sent (or none)
      let body: any;
      try {
        body = r.json();
      } catch {
        body = undefined;
      }
      return { status: r.statusCode, body, headers: r.headers, raw: r.body };
    },
    async close() {
      await app.close().catch(() => {});
      await closeContext(ctx).catch(() => {});
      await scratch?.drop().catch((e) => console.warn('could not drop scratch database', e));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
