import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './build';

/** `npm run admin -- ingest-public …` as a child process (it validates, queues and waits for the job). */
export function adminTool(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(repoRoot, 'node_modules/.bin/node'),
      ['--import', 'tsx', 'apps/server/src/cli/admin.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, ...env } },
    );
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}
