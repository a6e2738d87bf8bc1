import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/client';
import { LOCK_FILE } from '../src/db/embedded-lock';
import { migrate } from '../src/db/migrate';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

/**
 * Issue 21: the admin CLI on an embedded (PGlite) database that a running process holds says so
 * clearly (holder pid, "stop the server") instead of failing obscurely, for database commands and
 * backup alike; once the holder closes, the same command works.
 */
describe('admin CLI and an embedded database in use', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-lock-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const env = { ...process.env, CELLCLOUD_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    try {
      const r = await run(
        path.join(root, 'node_modules/.bin/tsx'),
        ['apps/server/src/cli/admin.ts', ...args],
        { cwd: root, env },
      );
      return { code: 0, out: r.stdout, err: r.stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, out: x.stdout, err: x.stderr };
    }
  }

  it('refuses with the holder named while the database is open, works after it closes', async () => {
    // the server opens its database exactly like this (entry/compose.ts → openDb)
    const db = await openDb({ dataDir: path.join(dataDir, 'pg') });
    await migrate(db);
    expect(existsSync(path.join(dataDir, 'pg', LOCK_FILE))).toBe(true);
    try {
      const r = await admin('list-users');
      expect(r.code).toBe(1);
      expect(r.err).toContain(`in use by a running CellCloud process (pid ${process.pid}`);
      expect(r.err).toContain('stop the server first');
      const b = await admin('backup', path.join(dataDir, 'backup'));
      expect(b.code).toBe(1);
      expect(b.err).toContain('in use by a running CellCloud process');
      expect(existsSync(path.join(dataDir, 'backup', 'database.tar.gz'))).toBe(false);
    } finally {
      await db.close();
    }
    expect(existsSync(path.join(dataDir, 'pg', LOCK_FILE))).toBe(false);
    const ok = await admin('list-users');
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('no users');
  }, 120_000);
});
