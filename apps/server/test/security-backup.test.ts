import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { backupDataDir, restoreDataDir } from '../src/db/backup';
import { composeContext } from '../src/entry/compose';
import { buildApp } from '../src/http/app';
import { logIn, signUp } from './support/accounts';
import { completedJobWithArtifacts } from './support/explore';
import { TEST_DB, type ApiResponse, type TestServer } from './support/harness';

/**
 * Backup and restore of an embedded installation (issue 12), as the README describes it:
 * a server on its own data directory (PGlite on disk + local storage) gets a user and a
 * result; it stops; `backup` writes a folder; `restore` fills a NEW data directory; a server
 * started there lets the user log in and open the result.
 */
const dirs: string[] = [];
const tmp = (tag: string) => {
  const d = mkdtempSync(path.join(os.tmpdir(), `cellcloud-backup-${tag}-`));
  dirs.push(d);
  return d;
};

async function serverOn(dataDir: string) {
  const config = loadConfig({
    CELLCLOUD_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    IN_PROCESS_WORKER: 'false',
  });
  const ctx = await composeContext(config);
  const app = await buildApp(ctx, { logger: false });
  const s = {
    app,
    ctx,
    dataDir,
    async request(
      method: string,
      url: string,
      opts: { body?: unknown; token?: string; form?: boolean } = {},
    ): Promise<ApiResponse> {
      const headers: Record<string, string> = {};
      if (opts.token) headers['access-token'] = opts.token;
      let payload: string | undefined;
      if (opts.body !== undefined) {
        headers['content-type'] = opts.form ? 'application/x-www-form-urlencoded' : 'application/json';
        payload = opts.form
          ? new URLSearchParams(opts.body as Record<string, string>).toString()
          : JSON.stringify(opts.body);
      }
      const r = await app.inject({ method: method as 'GET', url, headers, payload });
      let body;
      try {
        body = r.json();
      } catch {
        body = undefined;
      }
      return { status: r.statusCode, body, headers: r.headers, raw: r.body };
    },
    async close() {
      await app.close();
      await ctx.db.close();
    },
  };
  return s as unknown as TestServer & { close(): Promise<void> };
}

describe.skipIf(TEST_DB !== 'pglite')('backup and restore of the embedded database and local storage', () => {
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('dump → new data dir → restore → the user logs in and opens the result', async () => {
    const original = tmp('orig');
    const s = await serverOn(original);
    const user = await signUp(s);
    const me = await s.ctx.auth.resolve(user.token);
    if (!me || me === 'expired') throw new Error('no user');
    const job = await completedJobWithArtifacts(s, me.id);
    const manifest = await s.request('GET', `/api/user_datasets/${job.id}/artifacts/manifest.json`, {
      token: user.token,
    });
    expect(manifest.status).toBe(200);
    await s.close();

    const backup = path.join(tmp('dump'), 'backup');
    const info = await backupDataDir(original, backup);
    expect(info.databaseBytes).toBeGreaterThan(1000);
    expect(info.storageFiles).toBeGreaterThan(3);

    const fresh = tmp('restored');
    await restoreDataDir(backup, fresh);
    await expect(restoreDataDir(backup, fresh)).rejects.toThrow(/already holds a database/);
    const r = await serverOn(fresh);
    try {
      const token = await logIn(r, user.username, user.password);
      const again = await r.request('GET', `/api/user_datasets/${job.id}/artifacts/manifest.json`, { token });
      expect(again.status).toBe(200);
      expect(again.raw).toBe(manifest.raw);
      const jobView = await r.request('GET', `/api/jobs/${job.id}`, { token });
      expect(jobView.status).toBe(200);
      expect(jobView.body.data.status).toBe('completed');
    } finally {
      await r.close();
    }
  });
});
