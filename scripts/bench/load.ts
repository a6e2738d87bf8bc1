/**
 * npm run bench:load — loopback load on the API (issue 12) while the in-process worker is busy on
 * a pbmc3k analysis: explorer artifact Range reads, account info, upload list and job list, each
 * at LOAD_RATE/4 requests/s (default 200 req/s in all) for LOAD_SECONDS (60) with autocannon.
 * Prints p50 / p99 / max latency, errors and non-2xx per endpoint, whether the analysis was still
 * running at the end, and the `npm audit` summary. Target: p99 < 100 ms. Loopback only, bounded.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { accountPaths, FILES_API } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { fileFrom, uploadSample, waitParsed } from '../../apps/server/test/files-helpers';
import { signUp } from '../../apps/server/test/support/accounts';
import { completedJobWithArtifacts } from '../../apps/server/test/support/explore';
import { createTestServer } from '../../apps/server/test/support/harness';
import { pbmc3kResultDir } from '../../e2e/support/explore-setup';

const RATE = Number(process.env.LOAD_RATE ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const realResult = path.join(pbmc3kResultDir, 'artifacts');

function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p, base) : [path.relative(base, p)];
  });
}

interface CannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** autocannon (CLI, own process) at RATE/4 req/s on one URL; its JSON result. */
function cannon(url: string, headers: Record<string, string>): Promise<CannonResult> {
  const bin = path.join(repoRoot, 'node_modules/.bin/autocannon');
  const args = [
    '-c',
    '10',
    '-d',
    String(SECONDS),
    '-R',
    String(RATE / 4),
    '--json',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += String(d)));
    p.on('close', () => {
      try {
        resolve(JSON.parse(out) as CannonResult);
      } catch {
        reject(new Error(`autocannon gave no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

function npmAudit(): string {
  const r = spawnSync('npm', ['audit', '--json', '--omit=dev'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const all = spawnSync('npm', ['audit', '--json'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  const summary = (out: string) => {
    try {
      const json = JSON.parse(out) as {
        metadata?: { vulnerabilities?: Record<string, number> };
        message?: string;
      };
      const v = json.metadata?.vulnerabilities;
      if (v)
        return `critical ${v.critical}, high ${v.high}, moderate ${v.moderate}, low ${v.low} (total ${v.total})`;
      return `unavailable: ${json.message ?? 'no summary'}`;
    } catch {
      return `unavailable (${out.slice(0, 120).replace(/\s+/g, ' ')})`;
    }
  };
  return `npm audit: production dependencies: ${summary(r.stdout)}; all incl. dev: ${summary(all.stdout)}`;
}

async function main() {
  const pbmc = sharedData('pbmc3k/10x');
  process.env.ENSEMBL_GENE_LISTS_DIR ??= sharedData('gene_ids');
  const s = await createTestServer({ WORKER_CONCURRENCY: '1' });
  try {
    const url = await s.listen();
    const { token } = await signUp(s);
    const me = await s.ctx.auth.resolve(token);
    if (!me || me === 'expired') throw new Error('no user');
    // A completed result to read: the real pbmc3k explorer artifacts when the e2e setup made them.
    const job = await completedJobWithArtifacts(s, me.id);
    let rangeKey = 'embeddings/umap.f32';
    if (existsSync(realResult)) {
      for (const rel of files(realResult))
        await s.ctx.storage.put(
          `results/${job.id}/artifacts/${rel}`,
          new Uint8Array(readFileSync(path.join(realResult, rel))),
        );
      rangeKey =
        files(realResult)
          .filter((f) => f.startsWith('expr/'))
          .sort(
            (a, b) => statSync(path.join(realResult, b)).size - statSync(path.join(realResult, a)).size,
          )[0] ?? rangeKey;
    }
    // The worker busy on an analysis (pbmc3k through the real queue and child process).
    let analysisId: string | undefined;
    if (pbmc) {
      const up = await uploadSample(
        s,
        token,
        'pbmc3k',
        ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => fileFrom(`${pbmc}/${f}`)),
      );
      await waitParsed(s, token, up.id);
      const r = await s.request('POST', '/api/jobs', {
        token,
        body: {
          datasets: [{ id: up.id, name: 'pbmc3k', group: 'g1' }],
          param: { jobName: 'load_pbmc3k', species: 'Homo sapiens' },
        },
      });
      analysisId = r.body?.data?.id;
      for (let k = 0; k < 120 && analysisId; k++) {
        const j = (await s.request('GET', `/api/jobs/${analysisId}`, { token })).body.data;
        if (j.status === 'running' && j.progress > 0.02) break;
        await new Promise((res) => setTimeout(res, 500));
      }
    }
    const state = async () =>
      analysisId
        ? ((await s.request('GET', `/api/jobs/${analysisId}`, { token })).body.data as {
            status: string;
            progress: number;
          })
        : undefined;
    const before = await state();
    console.log(
      `bench:load — ${RATE} req/s for ${SECONDS} s on ${url} (loopback); analysis ${before ? `${before.status} at ${Math.round(before.progress * 100)}%` : 'not started (no pbmc3k data)'}; range reads of artifacts/${rangeKey}`,
    );
    const endpoints: { name: string; path: string; headers?: Record<string, string> }[] = [
      {
        name: 'artifact Range read (64 KiB)',
        path: `/api/user_datasets/${job.id}/artifacts/${rangeKey}`,
        headers: { range: 'bytes=0-65535' },
      },
      { name: 'account info', path: accountPaths.info },
      { name: 'upload list', path: `${FILES_API.uploads}?pageSize=20` },
      { name: 'job list', path: '/api/jobs?pageSize=20' },
    ];
    // One autocannon process per endpoint, so the load generator does not share the server's event loop.
    const load0 = os.loadavg()[0];
    const results = await Promise.all(
      endpoints.map((e) => cannon(`${url}${e.path}`, { 'access-token': token, ...(e.headers ?? {}) })),
    );
    const after = await state();
    console.log('endpoint                       requests   p50 ms   p99 ms   max ms   errors  non-2xx');
    for (const [i, r] of results.entries()) {
      console.log(
        `${endpoints[i]!.name.padEnd(30)} ${String(r.requests.total).padStart(8)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)} ${String(r.latency.max).padStart(8)} ${String(r.errors + r.timeouts).padStart(8)} ${String(r.non2xx).padStart(8)}`,
      );
    }
    const total = results.reduce((a, r) => a + r.requests.total, 0);
    console.log(
      `total ${total} requests in ${SECONDS} s (${(total / SECONDS).toFixed(0)} req/s); analysis at the end: ${after ? `${after.status} ${Math.round(after.progress * 100)}%` : '-'}; machine load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
  } finally {
    await s.close();
  }
  console.log(npmAudit());
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
