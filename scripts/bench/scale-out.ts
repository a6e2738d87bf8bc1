/**
 * npm run bench:scale-out — pbmc3k analyses per hour with 1, 2 and 3 separate worker processes
 * on one real PostgreSQL (issue 34). A scratch database is made on CELLCLOUD_TEST_PG_URL (default
 * postgres://postgres@127.0.0.1:5432/test) and dropped at the end; the API runs in this process
 * without a worker. pbmc3k is uploaded once (parsed by a worker started for it), then for each
 * worker count SCALE_OUT_N analyses (default 3; each with another cluster resolution, so none
 * reuses another's result) are submitted and that many `npm run worker` processes started
 * (WORKER_CONCURRENCY=1 each, no per-user cap). Printed per worker count: wall seconds until every
 * analysis completed, analyses per hour, CPU seconds of the workers and their child processes
 * (/proc utime + stime + cutime + cstime), peak RSS (all worker processes and children together,
 * sampled every second, and the largest single process) and the load average (1 min) at the start
 * and the end. Loopback only. SCALE_OUT_WORKERS=1,2,3 selects the worker counts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedData } from '@cellcloud/testkit';

process.env.CELLCLOUD_TEST_DB = 'postgres'; // the harness makes a scratch PostgreSQL database
const { createTestServer } = await import('../../apps/server/test/support/harness');
const { fileFrom, uploadSample, waitParsed } = await import('../../apps/server/test/files-helpers');
const { testUser } = await import('../../apps/server/test/support/jobs');

const N = Number(process.env.SCALE_OUT_N ?? 3);
const COUNTS = (process.env.SCALE_OUT_WORKERS ?? '1,2,3').split(',').map(Number);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const workerEntry = path.join(repoRoot, 'apps/server/src/entry/worker.ts');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const TICK = 100; // USER_HZ: clock ticks per second (Linux)
const PAGE = 4096;

const pbmc = sharedData('pbmc3k/10x');
if (!pbmc) {
  console.error('pbmc3k is not in the shared data (CELLCLOUD_SHARED_DATA): nothing to run');
  process.exit(1);
}

/** /proc/<pid>/stat fields: ppid, CPU ticks of the process and its waited-for children, RSS pages. */
function stat(pid: number): { ppid: number; ticks: number; rssPages: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14) … rss(21)
    return {
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
      rssPages: Number(f[21]),
    };
  } catch {
    return undefined;
  }
}

/** The processes under `roots` (the workers, their analysis children and those children's threads' processes). */
function tree(roots: number[]): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    const pid = Number(d);
    if (!pid) continue;
    const s = stat(pid);
    if (s) parent.set(pid, s.ppid);
  }
  const out = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent)
      if (!out.has(pid) && out.has(ppid)) {
        out.add(pid);
        grew = true;
      }
  }
  return [...out];
}

function startWorker(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, workerEntry], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        CELLCLOUD_DATA_DIR: dataDir,
        WORKER_CONCURRENCY: '1',
        USER_MAX_RUNNING_JOBS: '0',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('started')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with code ${code}`)));
  });
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.removeAllListeners('exit');
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

const s = await createTestServer({ IN_PROCESS_WORKER: 'false', USER_MAX_RUNNING_JOBS: '0' });
const rows: Record<string, number | string>[] = [];
try {
  await s.listen();
  const { token } = await testUser(s);
  // the upload, parsed by a worker started for it
  const ingest = await startWorker(s.databaseUrl!, s.dataDir);
  const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${pbmc}/${f}`));
  const up = await uploadSample(s, token, 'pbmc3k', files);
  if ((await waitParsed(s, token, up.id)).state !== 'completed') throw new Error('pbmc3k did not parse');
  await stopWorkers([ingest]);
  let variant = 0;
  for (const k of COUNTS) {
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const resolution = Number((0.5 + 0.01 * ++variant).toFixed(2));
      const r = await s.request('POST', '/api/jobs', {
        token,
        body: {
          datasets: [{ id: up.id, name: 'pbmc3k', group: 'g1' }],
          param: { jobName: `scale_${k}_${i}`, cluster: resolution },
        },
      });
      if (r.status !== 200 || r.body.data.cached) throw new Error(`submit: ${JSON.stringify(r.body)}`);
      ids.push(r.body.data.id as string);
    }
    const loadStart = os.loadavg()[0]!;
    const t0 = performance.now();
    const workers = await Promise.all(
      Array.from({ length: k }, () => startWorker(s.databaseUrl!, s.dataDir)),
    );
    const pids = workers.map((w) => w.pid!);
    let peakTotal = 0;
    let peakOne = 0;
    const sampler = setInterval(() => {
      let total = 0;
      for (const pid of tree(pids)) {
        const rss = (stat(pid)?.rssPages ?? 0) * PAGE;
        total += rss;
        peakOne = Math.max(peakOne, rss);
      }
      peakTotal = Math.max(peakTotal, total);
    }, 1000);
    for (;;) {
      const res = await s.ctx.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM analysis_jobs WHERE id = ANY($1) GROUP BY status',
        [ids],
      );
      const by = Object.fromEntries(res.map((r) => [r.status, r.n]));
      if ((by.error ?? 0) > 0) throw new Error(`an analysis failed: ${JSON.stringify(by)}`);
      if ((by.completed ?? 0) === N) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const wall = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const ticks = pids.reduce((a, pid) => a + (stat(pid)?.ticks ?? 0), 0);
    const loadEnd = os.loadavg()[0]!;
    await stopWorkers(workers);
    const row = {
      workers: k,
      analyses: N,
      wall_s: Number(wall.toFixed(1)),
      per_hour: Number(((N / wall) * 3600).toFixed(1)),
      cpu_s: Number((ticks / TICK).toFixed(1)),
      peak_rss_all_mib: Math.round(peakTotal / 2 ** 20),
      peak_rss_one_mib: Math.round(peakOne / 2 ** 20),
      load_start: Number(loadStart.toFixed(1)),
      load_end: Number(loadEnd.toFixed(1)),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await s.close();
}
console.log(`\npbmc3k analyses on one PostgreSQL, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'})`);
console.table(rows);
