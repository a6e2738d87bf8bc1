import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OUTBOX_LINE } from '@cellcloud/contracts';
import { repoRoot, webDist } from './build';

export interface RunningServer {
  url: string;
  /** The snapshot of apps/web/dist this server serves. */
  webDir: string;
  /** Everything the server printed so far (stdout + stderr). */
  output(): string;
  /** The newest e-mail code printed by the outbox for this address and purpose. */
  waitForCode(email: string, purpose: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function until<T>(
  fn: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts the real API process (`node --import tsx apps/server/src/entry/api.ts`) on a random
 * port with a fresh data directory (PGlite, local storage), serving the built web app.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-e2e-'));
  // Serve a private copy of the built app: others may rebuild apps/web/dist during the run.
  const webDir = path.join(dataDir, 'web');
  if (!existsSync(path.join(webDist, 'index.html'))) throw new Error(`no built web app in ${webDist}`);
  cpSync(webDist, webDir, { recursive: true });
  const node = path.join(repoRoot, 'node_modules/.bin/node');
  let out = '';
  const child: ChildProcess = spawn(node, ['--import', 'tsx', 'apps/server/src/entry/api.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CELLCLOUD_DATA_DIR: dataDir,
      WEB_DIST_DIR: webDir,
      DATABASE_URL: '',
      IN_PROCESS_WORKER: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  const url = `http://127.0.0.1:${port}`;

  await until(
    async () => {
      if (exited !== null) throw new Error(`server exited with ${exited}:\n${out}`);
      const ok = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      return ok ? true : undefined;
    },
    240_000,
    `the server on ${url}`,
  ).catch((e: unknown) => {
    child.kill('SIGKILL');
    throw new Error(`${e instanceof Error ? e.message : String(e)}; its output:\n${out}`);
  });

  return {
    url,
    webDir,
    output: () => out,
    waitForCode: (email, purpose, timeoutMs = 15_000) =>
      until(
        () => {
          let code: string | undefined;
          for (const line of out.split('\n')) {
            const m = OUTBOX_LINE.exec(line);
            if (m && m[1] === email && m[2] === purpose) code = m[3];
          }
          return code;
        },
        timeoutMs,
        `an outbox code for ${email}`,
      ),
    stop: async () => {
      if (exited === null) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
        if (exited === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
