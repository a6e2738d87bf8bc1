// Shared helpers for the two README commands. Plain JavaScript that runs on any Node >= 18, so
// that `npm start` / `npm test` work on a fresh clone before the pinned Node 24 is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin');

/** Environment whose PATH puts the pinned Node 24 (node_modules/.bin/node) first. */
export function pinnedEnv(extra = {}) {
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    cwd: root,
    env: pinnedEnv(opts.env),
    ...opts,
    env: pinnedEnv(opts.env),
  });
  return r.status ?? 1;
}

/**
 * Runs a command with its output captured (stdout and stderr interleaved), for commands run side
 * by side whose output is printed whole when each ends. Resolves with the exit code, the output
 * and the wall seconds.
 */
export function runCaptured(cmd, args, opts = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      ...opts,
      env: pinnedEnv(opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    const done = (code) => resolve({ code, out, seconds: (Date.now() - started) / 1000 });
    child.on('error', (e) => {
      out += `${e.message}\n`;
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

export function must(cmd, args, opts = {}) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}

/** Install dependencies when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale =
    !existsSync(marker) ||
    !existsSync(path.join(bin, 'node')) ||
    (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
  if (stale) {
    console.log('• installing dependencies (npm ci)…');
    must('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

/** Build the web app when its bundle is missing or older than its sources. */
export function ensureWebBuilt(force = false) {
  const out = path.join(root, 'apps', 'web', 'dist', 'index.html');
  if (force || !existsSync(out) || process.env.CELLCLOUD_REBUILD_WEB === '1') {
    console.log('• building the web app…');
    must('npm', ['run', 'build', '-w', '@cellcloud/web']);
  }
}
