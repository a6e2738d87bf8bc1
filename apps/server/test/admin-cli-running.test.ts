import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API } from '@cellcloud/contracts/admin';
import { accountPaths } from '@cellcloud/contracts';
import { PUBLIC_PATHS, type PublicDatasetDetail } from '@cellcloud/contracts/public-datasets';
import { sharedData } from '@cellcloud/testkit';
import { CONTROL_FILE } from '../src/services/admin/control';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const node = path.join(root, 'node_modules/.bin/node');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const execP = promisify(execFile);
const pbmc = sharedData('pbmc3k/10x');
const labels = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
    srv.on('error', reject);
  });
}

/**
 * Issue 31: `npm start` on a fresh data directory (embedded PGlite database) prints how to get the
 * first administrator; while it runs, `npm run admin` sends its commands to the server
 * (admin-control.json + POST /api/admin/cli) instead of failing on the held database: create the
 * first administrator, change a plan, ingest a public dataset (10x counts + metadata sheet) with
 * its progress printed, a sheet problem listed — no stack trace anywhere. The server holds the
 * embedded database whatever CELLCLOUD_TEST_DB says, so this file runs on PGlite only.
 */
describe.skipIf(!pbmc || !labels || process.env.CELLCLOUD_TEST_DB === 'postgres')(
  'admin tool while the server runs on the embedded database',
  () => {
    let dataDir: string;
    let child: ChildProcess;
    let out = '';
    let url: string;
    const env = () => ({ ...process.env, CELLCLOUD_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' });

    async function admin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
      try {
        // typed in the data directory (npm run keeps it in INIT_CWD): relative file arguments
        // are resolved against it, by the server too
        const r = await execP(tsx, [path.join(root, 'apps/server/src/cli/admin.ts'), ...args], {
          cwd: root,
          env: { ...env(), INIT_CWD: dataDir },
          maxBuffer: 16 * 1024 * 1024,
        });
        return { code: 0, out: r.stdout, err: r.stderr };
      } catch (e) {
        const x = e as { code: number; stdout: string; stderr: string };
        return { code: x.code, out: x.stdout, err: x.stderr };
      }
    }

    /** Signs `boss` in over HTTP and GETs `p` with the token. */
    async function asBoss<T>(p: string): Promise<T> {
      const login = (await (
        await fetch(`${url}${accountPaths.login}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'boss', password: 'Admin123' }),
        })
      ).json()) as { data: { token: string } };
      const r = await fetch(`${url}${p}`, { headers: { 'access-token': login.data.token } });
      return ((await r.json()) as { data: T }).data;
    }

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-admin-running-'));
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      child = spawn(node, ['--import', 'tsx', 'apps/server/src/entry/api.ts'], {
        cwd: root,
        env: {
          ...env(),
          PORT: String(port),
          HOST: '127.0.0.1',
          IN_PROCESS_WORKER: 'true',
          WORKER_CONCURRENCY: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      const end = Date.now() + 240_000;
      while (!out.includes('CellCloud is running at')) {
        // a crash ends the child by a signal (exitCode stays null): fail at once, not after 240 s
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${out}`);
        if (Date.now() > end) throw new Error(`server did not start: ${out}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 300_000);

    afterAll(async () => {
      if (child && child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 15_000))]);
      }
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('prints how to get the first administrator; the control file is the owner’s only', () => {
      expect(out).toContain('No administrator yet');
      expect(out).toContain('npm run admin -- create-admin');
      const file = path.join(dataDir, CONTROL_FILE);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o077).toBe(0);
    });

    it('creates the first administrator and changes a plan through the running server', async () => {
      const made = await admin(
        'create-admin',
        '--username',
        'boss',
        '--email',
        'boss@example.org',
        '--password',
        'Admin123',
      );
      expect(made.err).toContain('sent to the running server');
      expect(made.out).toContain('created admin boss <boss@example.org>');
      expect(made.code).toBe(0);
      const users = await admin('list-users');
      expect(users.out).toMatch(/boss\s+boss@example\.org\s+\S+\s+admin\s+active/);
      const plan = await admin('assign-plan', 'boss', 'readonly');
      expect(plan.out).toContain('user boss is now on plan readonly');
      const back = await admin('assign-plan', 'boss', 'synecosys');
      expect(back.code).toBe(0);
      // errors are one line, no stack trace; a wrong command line prints the usage (exit 2)
      const twice = await admin(
        'create-admin',
        '--username',
        'boss',
        '--email',
        'b2@example.org',
        '--password',
        'Admin123',
      );
      expect(twice.code).toBe(1);
      expect(twice.err).toContain('error: user name "boss" is already registered');
      expect(twice.err).not.toMatch(/\n\s+at /);
      const bad = await admin('frobnicate');
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('unknown command "frobnicate"');
      expect(bad.err).toContain('npm run admin -- ingest-status');
      // the administrator signs in to the same server: the console is theirs
      expect((await asBoss<{ admin: boolean }>(ADMIN_API.probe)).admin).toBe(true);
      // the control route takes the data directory's secret only
      const forged = await fetch(`${url}/api/admin/cli`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-secret': 'x'.repeat(64) },
        body: JSON.stringify({ argv: ['list-users'], cwd: '/' }),
      });
      expect(forged.status).toBe(403);
    }, 300_000);

    it('ingests a public dataset (counts + metadata sheet) with progress, a bad sheet listing every problem', async () => {
      const rows = readFileSync(labels!, 'utf8').trim().split('\n').slice(1);
      writeFileSync(path.join(dataDir, 'cells.csv'), ['barcode,label', ...rows].join('\n'));
      writeFileSync(
        path.join(dataDir, 'bad.yaml'),
        [
          'id: Not An Id!',
          'species: Homo sapiens',
          'cells: cells.csv',
          'columns:',
          '  annot_sub: label',
        ].join('\n'),
      );
      const bad = await admin('ingest-public', pbmc!, '--meta', 'bad.yaml');
      expect(bad.code).toBe(1);
      expect(bad.err).toContain('meta.id');
      expect(bad.err).toContain('meta.title');
      expect(bad.err).not.toMatch(/\n\s+at /);
      writeFileSync(
        path.join(dataDir, 'pbmc3k.yaml'),
        [
          'id: pbmc3k-running',
          'title: PBMC 3k (ingested while the server runs)',
          'species: Homo sapiens',
          'tissue: [blood]',
          'disease: [normal]',
          'assay: ["10x 3\' v1"]',
          'cells: cells.csv',
          'columns:',
          '  annot_sub: label',
        ].join('\n'),
      );
      const done = await admin('ingest-public', pbmc!, '--meta', 'pbmc3k.yaml');
      expect(done.err + done.out).not.toMatch(/\n\s+at /);
      expect(done.code, done.out + done.err).toBe(0);
      expect(done.out).toMatch(/queued the ingest of public dataset pbmc3k-running v1: ingest [0-9a-f-]{36}/);
      expect(done.out).toMatch(/\(ingest [0-9a-f-]{36}\): (queued|running)/); // progress lines
      expect(done.out).toContain('ingested public dataset pbmc3k-running v1: 2638 cells');
      const detail = await asBoss<PublicDatasetDetail>(PUBLIC_PATHS.one('pbmc3k-running'));
      expect(detail.cells).toBe(2638);
    }, 900_000);

    it('after the server stops the tool opens the database itself again', async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
      expect(existsSync(path.join(dataDir, CONTROL_FILE))).toBe(false);
      const users = await admin('list-users');
      expect(users.err).not.toContain('sent to the running server');
      expect(users.out).toContain('boss');
      expect(users.code).toBe(0);
    }, 120_000);
  },
);
