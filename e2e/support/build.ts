import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const webDist = path.join(repoRoot, 'apps/web/dist');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

/**
 * The e2e tests run against the BUILT app (as `npm start` serves it). Rebuilds when the bundle
 * is missing or older than apps/web/src, packages/contracts/src or packages/tasks/src, unless CELLCLOUD_E2E_NO_BUILD=1.
 */
export function ensureWebBuild(): void {
  const index = path.join(webDist, 'index.html');
  // CELLCLOUD_E2E_NO_BUILD=1 tests the existing bundle as it is (e.g. `npm test` just built it)
  if (process.env.CELLCLOUD_E2E_NO_BUILD === '1' && existsSync(index)) return;
  const sources = Math.max(
    newestMtime(path.join(repoRoot, 'apps/web/src')),
    newestMtime(path.join(repoRoot, 'packages/contracts/src')),
    // each task's web views and messages live in its plugin folder (packages/tasks/README.md)
    newestMtime(path.join(repoRoot, 'packages/tasks/src')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const r = spawnSync('npx', ['vite', 'build'], {
    cwd: path.join(repoRoot, 'apps/web'),
    stdio: 'pipe',
    encoding: 'utf8',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PATH: `${path.join(repoRoot, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    },
  });
  if (r.status !== 0) throw new Error(`web build failed:\n${r.stdout}\n${r.stderr}`);
}
