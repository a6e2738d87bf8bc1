import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { accountPaths } from '@cellcloud/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { composeContext } from '../src/entry/compose';
import { buildApp } from '../src/http/app';
import { createScratchDatabase, TEST_DB, type ApiResponse } from './support/harness';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

describe(`admin CLI (child process) on ${TEST_DB}`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-cli-'));
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const env = () => ({
    ...process.env,
    CELLCLOUD_DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? '',
    LOG_LEVEL: 'silent',
  });

  /** `npm run admin -- …` runs exactly this: tsx on the CLI entry. */
  async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    try {
      const r = await run(
        path.join(root, 'node_modules/.bin/tsx'),
        ['apps/server/src/cli/admin.ts', ...args],
        { cwd: root, env: env() },
      );
      return { code: 0, out: r.stdout, err: r.stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, out: x.stdout, err: x.stderr };
    }
  }

  /** Starts the real app on the same data directory / database, runs `fn`, closes it. */
  async function withServer<T>(
    fn: (
      inject: (
        m: 'GET' | 'POST',
        url: string,
        body?: object,
        token?: string,
      ) => Promise<Pick<ApiResponse, 'status' | 'body'>>,
    ) => Promise<T>,
  ) {
    const ctx = await composeContext(loadConfig(env()));
    const app = await buildApp(ctx, { logger: false });
    try {
      return await fn(async (method, url, body, token) => {
        const r = await app.inject({
          method,
          url,
          payload: body,
          headers: token ? { 'access-token': token } : {},
        });
        return { status: r.statusCode, body: r.json() };
      });
    } finally {
      await app.close();
      await ctx.db.close();
    }
  }

  beforeAll(async () => {
    if (TEST_DB === 'postgres') scratch = await createScratchDatabase();
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an admin who can log in, lists users and plans', async () => {
    const bad = await admin('create-admin', '--username', '1bad', '--email', 'x', '--password', 'weak');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--username: The user name must not start with a digit\./);

    const r = await admin(
      'create-admin',
      '--username',
      'site_admin',
      '--email',
      'admin@example.org',
      '--password',
      'Admin123',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/created admin site_admin <admin@example.org>/);
    const dup = await admin(
      'create-admin',
      '--username',
      'site_admin',
      '--email',
      'other@example.org',
      '--password',
      'Admin123',
    );
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already registered/);

    const users = await admin('list-users');
    expect(users.out).toMatch(/site_admin\s+admin@example.org\s+synecosys\s+admin\s+active/);
    const plans = await admin('list-plans');
    expect(plans.out).toMatch(/researcher\s+Researcher\s+yes/);

    await withServer(async (inject) => {
      const login = await inject('POST', accountPaths.login, {
        username: 'site_admin',
        password: 'Admin123',
      });
      expect(login.status).toBe(200);
      const info = await inject('GET', accountPaths.info, undefined, login.body.data.token);
      expect(info.body.data.user.username).toBe('site_admin');
      // Admin is a hidden role: the info answer does not reveal it, and the admin plan enables SynEcoSys.
      expect(JSON.stringify(info.body.data.user)).not.toMatch(/admin"?:\s*true/i);
      expect(
        info.body.data.privileges.find(
          (p: { permission: string }) => p.permission === 'integrateSynEcoSysData',
        ).disabled,
      ).toBe(false);
    });
  });

  it('assigns a plan and disables a user (no login, tokens revoked)', async () => {
    const token = await withServer(
      async (inject) =>
        (await inject('POST', accountPaths.login, { username: 'admin@example.org', password: 'Admin123' }))
          .body.data.token as string,
    );

    const wrongPlan = await admin('assign-plan', 'site_admin', 'gold');
    expect(wrongPlan.code).toBe(1);
    expect(wrongPlan.err).toMatch(/no plan "gold"; plans: readonly, researcher, synecosys/);
    expect((await admin('assign-plan', 'site_admin', 'readonly')).out).toMatch(/now on plan readonly/);
    await withServer(async (inject) => {
      const info = await inject('GET', accountPaths.info, undefined, token);
      expect(
        info.body.data.privileges.find((p: { permission: string }) => p.permission === 'importData').disabled,
      ).toBe(true);
    });

    expect((await admin('disable-user', 'site_admin')).out).toMatch(/disabled/);
    expect((await admin('list-users')).out).toMatch(/site_admin.*disabled/);
    await withServer(async (inject) => {
      expect((await inject('GET', accountPaths.info, undefined, token)).status).toBe(401);
      expect(
        (await inject('POST', accountPaths.login, { username: 'site_admin', password: 'Admin123' })).status,
      ).toBe(403);
    });
    const usage = await admin('frobnicate');
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/unknown command "frobnicate"/);
  });
});
