/**
 * npm run bench:fuzz — parser fuzzing (issue 12). For each format (MTX, 10x H5, h5ad, dense text,
 * CeleScope, zip, tar.gz, 10x contig CSV), FUZZ_N (default 10,000) mutated inputs derived from a
 * small real seed go through the readers in a child process with a heap cap (FUZZ_HEAP_MB, 768),
 * an RSS cap (FUZZ_RSS_MB, 1536) and a per-input time cap (FUZZ_TIMEOUT_MS, 5000). Prints, per
 * format, clean errors / accepted / crashes / hangs / over-memory (target: 0 crashes, 0 hangs,
 * 0 over-memory). FUZZ_FORMATS=mtx,h5ad to run some; FUZZ_VERBOSE=1 prints crash stacks.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FORMATS, type FuzzFormat } from './fuzz-child';

const N = Number(process.env.FUZZ_N ?? 10_000);
const HEAP_MB = Number(process.env.FUZZ_HEAP_MB ?? 768);
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 5000);
const formats = (process.env.FUZZ_FORMATS?.split(',') ?? [...FORMATS]) as FuzzFormat[];
const childFile = fileURLToPath(new URL('./fuzz-child.ts', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Kind = 'clean' | 'accepted' | 'crash' | 'hang' | 'over-memory' | 'skipped';

function start(): Promise<ChildProcess> {
  const child = fork(childFile, [], {
    execArgv: ['--import', tsx, `--max-old-space-size=${HEAP_MB}`],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  child.stderr!.on('data', (d: Buffer) => {
    const text = String(d);
    (child as ChildProcess & { lastErr?: string }).lastErr = text.slice(-2000);
    if (process.env.FUZZ_VERBOSE) process.stderr.write(text);
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) =>
      reject(
        new Error(
          `fuzz child failed to start (exit ${code}): ${(child as ChildProcess & { lastErr?: string }).lastErr ?? ''}`,
        ),
      ),
    );
  });
}

async function fuzzFormat(
  format: FuzzFormat,
): Promise<Record<Kind, number> & { seconds: number; maxRssMb: number }> {
  const counts: Record<Kind, number> = {
    clean: 0,
    accepted: 0,
    crash: 0,
    hang: 0,
    'over-memory': 0,
    skipped: 0,
  };
  let child = await start();
  let maxRss = 0;
  const t0 = Date.now();
  for (let i = 0; i < N; i++) {
    const kind = await new Promise<Kind>((resolve) => {
      const timer = setTimeout(() => finish('hang'), TIMEOUT_MS);
      const onMessage = (m: { i: number; kind: Kind; rss: number }) => {
        if (m.i !== i) return;
        maxRss = Math.max(maxRss, m.rss);
        finish(m.kind);
      };
      const onExit = (code: number | null, signal: string | null) => {
        const err = (child as ChildProcess & { lastErr?: string }).lastErr ?? '';
        finish(
          code === 3 ||
            /heap out of memory|Allocation failed|Cannot enlarge memory|OOM/i.test(err) ||
            signal === 'SIGKILL'
            ? 'over-memory'
            : 'crash',
        );
      };
      const finish = (k: Kind) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(k);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ format, i });
    });
    counts[kind]++;
    if (kind === 'hang' || kind === 'over-memory' || (kind === 'crash' && child.exitCode !== null)) {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (process.env.FUZZ_VERBOSE) console.error(`[${kind}] ${format} #${i}`);
      child = await start();
    }
  }
  child.kill();
  return { ...counts, seconds: (Date.now() - t0) / 1000, maxRssMb: Math.round(maxRss / 1024 / 1024) };
}

console.log(
  `bench:fuzz — ${N} mutated inputs per format; child heap ${HEAP_MB} MB, per-input ${TIMEOUT_MS} ms`,
);
console.log(
  'format        clean  accepted  crashes  hangs  over-memory   seconds  max RSS MB  (mutator faults)',
);
const totals: Record<Kind, number> = {
  clean: 0,
  accepted: 0,
  crash: 0,
  hang: 0,
  'over-memory': 0,
  skipped: 0,
};
for (const f of formats) {
  const r = await fuzzFormat(f);
  for (const k of Object.keys(totals) as Kind[]) totals[k] += r[k];
  console.log(
    `${f.padEnd(12)} ${String(r.clean).padStart(6)} ${String(r.accepted).padStart(9)} ${String(r.crash).padStart(8)} ${String(r.hang).padStart(6)} ${String(r['over-memory']).padStart(12)} ${r.seconds.toFixed(0).padStart(9)} ${String(r.maxRssMb).padStart(11)}`,
  );
}
console.log(
  `total        ${String(totals.clean).padStart(6)} ${String(totals.accepted).padStart(9)} ${String(totals.crash).padStart(8)} ${String(totals.hang).padStart(6)} ${String(totals['over-memory']).padStart(12)}`,
);
process.exit(totals.crash + totals.hang + totals['over-memory'] > 0 ? 1 : 0);
