import { freePort } from '@cellcloud/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseImage,
  buildImage,
  IMAGE,
  podman,
  podmanUnavailable,
  scratchDatabase,
  until,
} from './support/podman';

/**
 * The container image (deploy/Containerfile) builds under podman on a local Debian base and
 * runs as the API (GET /api/health answers 200, the image's HEALTHCHECK passes, non-root, with a
 * read-only root file system as the Helm chart runs it) and as a worker that connects to the
 * queue. Skipped with a message where podman cannot be installed, except under CI=true.
 */
const unavailable = podmanUnavailable();
if (unavailable && process.env.CI === 'true')
  throw new Error(`podman is required under CI=true: ${unavailable}`);
if (unavailable) console.warn(`SKIPPED the container image tests: ${unavailable}`);

/** The value `fn` waits for, or an error carrying the container's log. */
async function waitFor<T>(
  container: string,
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  ms: number,
) {
  return until(what, fn, ms).catch((e: Error) => {
    const log = podman('logs', container);
    throw new Error(`${e.message}\n${log.out}${log.err}`);
  });
}

describe.skipIf(!!unavailable)('container image', () => {
  const tag = `ccimg${process.pid}`;
  const containers: string[] = [];
  let db: Awaited<ReturnType<typeof scratchDatabase>>;

  beforeAll(async () => {
    const t0 = Date.now();
    const base = baseImage();
    const t1 = Date.now();
    buildImage(base);
    console.log(
      `image: base ${((t1 - t0) / 1000).toFixed(1)} s, build ${((Date.now() - t1) / 1000).toFixed(1)} s`,
    );
    db = await scratchDatabase();
    if (!db && process.env.CI === 'true')
      throw new Error('PostgreSQL (CELLCLOUD_TEST_PG_URL) is needed by the containers');
    if (!db)
      console.warn('SKIPPED running the containers: PostgreSQL (CELLCLOUD_TEST_PG_URL) is not reachable');
  });

  afterAll(async () => {
    for (const c of containers) podman('rm', '-f', '-t', '0', c);
    podman('volume', 'rm', '-f', `${tag}-data`, `${tag}-wdata`);
    await db?.drop();
  });

  /** Runs the image on the host network with a read-only root, /tmp in memory, /data a volume. */
  const run = (name: string, volume: string, args: string[]) => {
    const r = podman(
      ...['run', '-d', '--network=host', '--name', name, '--read-only', '--tmpfs', '/tmp'],
      ...['-v', `${volume}:/data`, '-e', `DATABASE_URL=${db!.url}`, ...args],
    );
    if (r.code !== 0) throw new Error(`podman run ${name}: ${r.err}`);
    containers.push(name);
  };

  it('serves /api/health as the API, non-root, on a read-only root file system', async (ctx) => {
    if (!db) return ctx.skip();
    const port = await freePort();
    const name = `${tag}-api`;
    const t0 = Date.now();
    run(name, `${tag}-data`, ['-e', `PORT=${port}`, IMAGE, 'api']);
    const health = await waitFor(
      name,
      'GET /api/health = 200',
      async () => {
        const r = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        return r?.status === 200 ? ((await r.json()) as { data: Record<string, unknown> }) : undefined;
      },
      180_000,
    );
    console.log(`API container healthy after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    expect(health.data).toMatchObject({ status: 'ok', database: { ok: true }, storage: { ok: true } });
    // the web app is prebuilt into the image and served on the same port
    const index = await fetch(`http://127.0.0.1:${port}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root">');
    // the image's own HEALTHCHECK (docker format) passes
    expect(podman('healthcheck', 'run', name).code).toBe(0);
    expect(podman('exec', name, 'id', '-u').out.trim()).toBe('10001');
    expect(podman('exec', name, 'node', '--version').out.trim()).toMatch(/^v24\./);
    // jobs are left to the workers
    expect(podman('exec', name, 'sh', '-c', 'tr "\\0" "\\n" </proc/1/environ').out).toContain(
      'IN_PROCESS_WORKER=false',
    );
  });

  it('starts a worker with the worker command, connected to the queue', async (ctx) => {
    if (!db) return ctx.skip();
    const pgc = new pg.Client({ connectionString: db!.url });
    await pgc.connect();
    const sessions = async () =>
      Number(
        (
          await pgc.query<{ n: string }>(
            'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          )
        ).rows[0]!.n,
      );
    try {
      const before = await sessions(); // the API container's
      const name = `${tag}-worker`;
      run(name, `${tag}-wdata`, ['--no-healthcheck', IMAGE, 'worker']);
      const line = await waitFor(
        name,
        'the worker start line',
        () => /CellCloud worker \d+ started \(database: postgres[^\n]*/.exec(podman('logs', name).out)?.[0],
        120_000,
      );
      expect(line).toContain('storage: local');
      expect(podman('inspect', '-f', '{{.State.Running}}', name).out.trim()).toBe('true');
      // its own database sessions (the queue's pool) beside the API's
      expect(
        await until('worker sessions', async () => ((await sessions()) > before ? true : undefined), 30_000),
      ).toBe(true);
    } finally {
      await pgc.end();
    }
  });
});
