/**
 * `npm run bench:jobs` — prints
 *  1. queue throughput: no-op jobs per second through pg-boss on the embedded PGlite default and,
 *     when BENCH_DATABASE_URL (or CELLCLOUD_TEST_PG_URL) is reachable, on PostgreSQL;
 *  2. pbmc3k end to end: upload (tus) → ingest → submit the wizard draft → analysis completed,
 *     in seconds (needs the engine's runAnalysis/writeOutputs).
 * Env: BENCH_JOBS (default 300), WORKER_CONCURRENCY (default 4).
 */
import { sharedData } from '@cellcloud/testkit';
import { JobQueue } from '../../apps/server/src/queue/job-queue';
import { fileFrom, uploadSample, waitParsed } from '../../apps/server/test/files-helpers';
import { signUp } from '../../apps/server/test/support/accounts';
import { createScratchDatabase, createTestServer } from '../../apps/server/test/support/harness';
import { loadConfig } from '../../apps/server/src/config';
import { openDb } from '../../apps/server/src/db/client';

const N = Number(process.env.BENCH_JOBS ?? 300);
const CONCURRENCY = process.env.WORKER_CONCURRENCY ?? '4';

async function throughput(label: string, databaseUrl: string | undefined) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    CELLCLOUD_DATA_DIR: '/tmp/cellcloud-bench',
    WORKER_CONCURRENCY: CONCURRENCY,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const db = await openDb({ url: databaseUrl });
  const queue = new JobQueue(config, db);
  await queue.start();
  let done = 0;
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  const t0 = performance.now();
  await queue.work(
    'system.noop',
    async () => {
      if (++done === N) resolveAll();
    },
    { batchSize: 10 },
  );
  for (let i = 0; i < N; i++) await queue.send('system.noop', {});
  const sent = performance.now();
  await all;
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `queue ${label}: ${N} no-op jobs in ${secs.toFixed(2)} s → ${(N / secs).toFixed(1)} jobs/s (enqueue ${((sent - t0) / 1000).toFixed(2)} s, concurrency ${CONCURRENCY})`,
  );
  await queue.stop();
  await db.close();
}

async function pbmc3k() {
  const dir = sharedData('pbmc3k/10x');
  if (!dir) return console.log('pbmc3k end to end: skipped (shared data pbmc3k/10x not found)');
  process.env.ENSEMBL_GENE_LISTS_DIR ??= sharedData('gene_ids');
  const s = await createTestServer({ WORKER_CONCURRENCY: '1' });
  try {
    await s.listen();
    const { token } = await signUp(s);
    const files = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${dir}/${f}`));
    const up = await uploadSample(s, token, 'pbmc3k', files);
    const parsed = await waitParsed(s, token, up.id);
    if (parsed.state !== 'completed') return console.log(`pbmc3k end to end: upload ended ${parsed.state}`);
    const t0 = performance.now();
    const r = await s.request('POST', '/api/jobs', {
      token,
      body: {
        datasets: [{ id: up.id, name: 'pbmc3k', group: 'g1' }],
        param: { jobName: 'bench_pbmc3k', species: 'Homo sapiens' },
      },
    });
    if (r.status !== 200) return console.log(`pbmc3k end to end: submit failed ${r.status} ${r.body?.msg}`);
    const id = r.body.data.id as string;
    for (;;) {
      const j = (await s.request('GET', `/api/jobs/${id}`, { token })).body.data;
      if (j.status === 'completed') {
        console.log(
          `pbmc3k end to end: submit → completed in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        break;
      }
      if (j.status === 'error') {
        console.log(
          `pbmc3k end to end: job failed after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${j.message}`,
        );
        break;
      }
      await new Promise((res) => setTimeout(res, 500));
    }
  } finally {
    await s.close();
  }
}

async function main() {
  await throughput('PGlite', undefined);
  const admin =
    process.env.BENCH_DATABASE_URL ??
    process.env.CELLCLOUD_TEST_PG_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const scratch = await createScratchDatabase().catch(() => undefined);
  if (scratch) {
    try {
      await throughput('PostgreSQL', scratch.url);
    } finally {
      await scratch.drop();
    }
  } else console.log(`queue PostgreSQL: skipped (${admin} not reachable)`);
  await pbmc3k();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
