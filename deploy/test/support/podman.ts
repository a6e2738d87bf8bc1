import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase } from '../../../apps/server/test/support/harness';

/**
 * Podman for the deploy tests: installs it from Debian when missing (root only), builds the
 * image from deploy/Containerfile on a local Debian base (deploy/podman/base-image.sh, cached
 * outside the checkout) and runs containers on the host network. No image registry is needed.
 */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const IMAGE = 'localhost/cellcloud:test';
const env = { ...process.env, CONTAINERS_CONF: path.join(root, 'deploy/podman/containers.conf') };

export function sh(cmd: string, args: string[], opts: SpawnSyncOptions = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  return { code: r.status ?? 1, out: String(r.stdout ?? ''), err: String(r.stderr ?? '') };
}

export function podman(...args: string[]) {
  return sh('podman', args);
}

/** Why podman cannot be used here, or undefined when it can (installing it when root). */
export function podmanUnavailable(): string | undefined {
  if (sh('podman', ['--version']).code === 0 && sh('debootstrap', ['--version']).code === 0) return undefined;
  if (process.getuid?.() !== 0)
    return 'podman is not installed and installing it needs root (apt-get install podman runc debootstrap)';
  const apt = { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: 'inherit' as const };
  sh('apt-get', ['update'], apt);
  sh('apt-get', ['install', '-y', '--no-install-recommends', 'podman', 'runc', 'debootstrap'], apt);
  return sh('podman', ['--version']).code === 0
    ? undefined
    : 'apt-get install podman runc debootstrap failed';
}

/** The base image (made once per machine, deploy/podman/base-image.sh) and its name. */
export function baseImage(): string {
  const suite = /VERSION_CODENAME=(\w+)/.exec(sh('cat', ['/etc/os-release']).out)?.[1] ?? 'bookworm';
  const name = `localhost/cellcloud-base:${suite}`;
  const r = sh('sh', ['deploy/podman/base-image.sh', name], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.code !== 0) throw new Error('deploy/podman/base-image.sh failed');
  return name;
}

/** Builds IMAGE; a TLS-intercepting proxy's CA (NODE_EXTRA_CA_CERTS of this machine) is passed to npm. */
export function buildImage(base: string): void {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const caArgs =
    ca && existsSync(ca)
      ? ['-v', `${ca}:/run/build-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/build-ca.crt']
      : [];
  const r = sh(
    'podman',
    [
      'build',
      '--network=host',
      '--format',
      'docker',
      '-f',
      'deploy/Containerfile',
      '-t',
      IMAGE,
      '--build-arg',
      `BASE_IMAGE=${base}`,
      ...caArgs,
      '.',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.code !== 0) throw new Error(`podman build failed (${r.code})`);
  // each build leaves its predecessor's stages untagged (~3.5 GB); keep a day of them as the cache
  podman('image', 'prune', '-f', '--filter', 'until=24h');
}

/** A scratch PostgreSQL database (CELLCLOUD_TEST_PG_URL), or undefined when PostgreSQL is not reachable. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  return createScratchDatabase().catch(() => undefined);
}

export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}`);
}
