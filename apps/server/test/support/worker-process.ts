import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestServer } from './harness';

const workerEntry = fileURLToPath(new URL('../../src/entry/worker.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * `npm run worker` (the worker entry) as a separate process on the test server's PostgreSQL
 * database and data directory; `env` adds or overrides settings. Resolves once it printed its
 * start line (it is polling then); `out` collects its standard output.
 */
export function spawnWorker(
  s: TestServer,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; out: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, workerEntry], {
      cwd: path.resolve(path.dirname(workerEntry), '../../../..'),
      env: {
        ...process.env,
        DATABASE_URL: s.databaseUrl!,
        CELLCLOUD_DATA_DIR: s.dataDir,
        WORKER_CONCURRENCY: '1',
        JOB_HEARTBEAT_SECONDS: '10',
        QUEUE_SUPERVISE_SECONDS: '1',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out: string[] = [];
    const timer = setTimeout(() => reject(new Error('worker did not start within 60 s')), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      out.push(b.toString());
      if (out.join('').includes('started')) {
        clearTimeout(timer);
        resolve({ child, out });
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited early with code ${code}`)));
  });
}
