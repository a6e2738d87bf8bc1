// `npm test`: the whole suite. Installs what it needs (npm packages, Debian's chromium), builds
// the web app, runs lint, typecheck and prettier --check, then unit + server tests on PGlite, the server tests again on PostgreSQL, then the
// deploy tests (Helm chart, container image under podman) and the browser tests, and ends with one plain line "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGLITE_ONLY, POSTGRES_ONLY } from './test/pglite-only.mjs';
import { ensureInstalled, ensureWebBuilt, pinnedEnv, root, run, runCaptured } from './lib.mjs';

const inCI = process.env.CI === 'true';
ensureInstalled();

// System packages from Debian: chromium for the browser tests (never a downloaded browser),
// CJK fonts for zh-CN screenshots, h5py + anndata to check that our .h5ad files open in anndata,
// R with Seurat to check that the Seurat export loads.
const chromium = process.env.CELLCLOUD_CHROMIUM ?? '/usr/bin/chromium';
const debs = [
  ['chromium', () => existsSync(chromium)],
  ['fonts-noto-cjk', () => existsSync('/usr/share/fonts/opentype/noto')],
  ['python3-h5py', () => spawnSync('python3', ['-c', 'import h5py']).status === 0],
  ['python3-anndata', () => spawnSync('python3', ['-c', 'import anndata']).status === 0],
  // openpyxl: the tables download's tables.xlsx is read back (apps/server/test/download-tables-figures)
  ['python3-openpyxl', () => spawnSync('/usr/bin/python3', ['-c', 'import openpyxl']).status === 0],
  // R + Seurat: the Seurat bundle of requested downloads is loaded with its own load_seurat.R
  ['r-cran-seurat', () => spawnSync('Rscript', ['-e', 'library(Seurat)']).status === 0],
  // pdftotext: the methods report PDF's text is checked in both languages
  ['poppler-utils', () => spawnSync('pdftotext', ['-v']).status === 0],
];
const missing = debs.filter(([, ok]) => !ok()).map(([name]) => name);
if (missing.length && process.getuid?.() === 0) {
  console.log(`• installing Debian packages: ${missing.join(' ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
}
if (!existsSync(chromium)) {
  console.error(`✖ chromium not found at ${chromium}; install it with: apt-get install -y chromium`);
  if (inCI) process.exit(1);
}

/** [stage, wall seconds], printed with the summary. */
const stages = [];
const suiteStarted = Date.now();
const t0 = Date.now();
ensureWebBuilt(true);
stages.push(['web build', (Date.now() - t0) / 1000]);

const outDir = path.join(root, '.cellcloud-test');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const only = process.argv.slice(2); // optional vitest filters, e.g. `npm test -- accounts`
// browser test files two side by side (vitest.config.ts, e2e/support/global-setup.ts makes the web
// bundle and the shared pbmc3k result once first); CELLCLOUD_E2E_WORKERS=1 runs them one at a time
const e2eWorkers = Math.max(1, Number(process.env.CELLCLOUD_E2E_WORKERS ?? 2) || 2);
const results = [];
/**
 * The failed tests of a vitest JSON report, as `file > test: first line of the message`, so that
 * the summary at the end of a long CI log says which test failed (the log's head may be cut off).
 */
function failuresOf(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) {
      const why = String(a.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 240);
      out.push(`${name} > ${a.fullName ?? a.title}: ${why}`);
    }
    if (failed.length === 0 && file.status === 'failed') {
      const why = String(file.message ?? '')
        .split('\n')[0]
        .slice(0, 240);
      out.push(`${name}: ${why || 'failed outside its tests (a hook, or the file did not load)'}`);
    }
  }
  return out;
}
function vitest(label, projects, env, extra = []) {
  const json = path.join(outDir, `${label}.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    // vitest's default is one worker fewer than the cores: on a 2-core machine the unit and server
    // files ran one at a time (PGlite 710 s → 443 s, PostgreSQL 383 s → 264 s with two)
    ...(projects.includes('e2e') ? [`--maxWorkers=${e2eWorkers}`] : ['--maxWorkers=2']),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
    // each file's seconds with its hooks, for scripts/test/update-durations.mjs (the JSON report
    // leaves a file's beforeAll out: scripts/test/file-seconds.ts)
    '--reporter=./scripts/test/file-seconds.ts',
    ...extra,
    ...only,
  ];
  console.log(`\n━━ ${label} ━━`);
  const started = Date.now();
  const seconds = path.join(outDir, `${label}.seconds.json`);
  const code = run('npx', args, { env: pinnedEnv({ ...env, CELLCLOUD_FILE_SECONDS: seconds }) });
  stages.push([label, (Date.now() - started) / 1000]);
  let summary = { passed: 0, failed: 0, skipped: 0, failures: [] };
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    summary = {
      passed: r.numPassedTests,
      failed: r.numFailedTests,
      skipped: r.numPendingTests + r.numTodoTests,
      failures: failuresOf(r),
    };
    if (r.numFailedTestSuites > 0 && r.numFailedTests === 0) summary.failed += r.numFailedTestSuites;
  } else if (code !== 0) summary.failed += 1;
  if (code !== 0 && summary.failed === 0) summary.failed = 1;
  results.push({ label, code, ...summary });
}

// Static checks (issue 11): lint, typecheck of every workspace and of the browser tests, and
// formatting. Each counts as one test in the summary; skipped when vitest filters are given.
// They run two at a time (2 cores), longest first, each one's output printed whole when it ends.
// Measured 2026-11-29 (brief E): the 13 checks use ~105 s of CPU (user; eslint 11, prettier 19,
// each tsc 1–13: every tsc reads again the packages it imports). One after another they took
// 224 s wall at load average 2 → 11; a one-process `tsc -b` would need composite projects with
// declaration output. Two lanes bound the wall by about half the CPU on an idle 2-core machine;
// on the shared machine (load 11 → 26) the two-lane run took 377 s, i.e. no figure there.
async function checks(list, lanes = 2) {
  const outcomes = new Array(list.length);
  let next = 0;
  async function lane() {
    while (next < list.length) {
      const i = next++;
      const [label, cmd, args] = list[i];
      const { code, out, seconds } = await runCaptured(cmd, args);
      console.log(`\n━━ ${label} ━━ (${seconds.toFixed(1)} s)`);
      if (out) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      outcomes[i] = {
        label,
        code,
        passed: code === 0 ? 1 : 0,
        failed: code === 0 ? 0 : 1,
        skipped: 0,
        seconds,
      };
    }
  }
  await Promise.all(Array.from({ length: lanes }, lane));
  results.push(...outcomes);
}
if (only.length === 0) {
  const started = Date.now();
  const typecheck = (p) => [`typecheck ${p}`, 'npx', ['tsc', '-p', `${p}/tsconfig.json`, '--noEmit']];
  await checks([
    // longest first, so the two lanes end together
    typecheck('apps/server'),
    ['lint (eslint)', 'npx', ['eslint', '.']],
    typecheck('apps/web'),
    typecheck('packages/tasks'),
    ['format (prettier --check)', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']],
    typecheck('e2e'),
    typecheck('packages/engine'),
    typecheck('deploy'),
    ['import cycles (dependency-cruiser)', 'node', ['scripts/check/cycles.mjs']],
    typecheck('packages/formats'),
    typecheck('packages/contracts'),
    typecheck('packages/testkit'),
    // the task registries are generated from packages/tasks/src/<task>/ folders (packages/tasks/README.md)
    ['task registries up to date', 'node', ['scripts/gen-task-registry.mjs', '--check']],
  ]);
  stages.push(['static checks', (Date.now() - started) / 1000]);
}

function portOpen(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 });
    s.on('connect', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

// The stages run one after another. Running the PostgreSQL server project beside the browser tests
// (2 cores) was considered (brief E, 2026-11-25) but not adopted: it could not be measured faster on
// the shared machine (load 15–22 all morning), and the e2e files wait on real analysis jobs whose
// timeouts a second CPU-bound stage would eat into. The e2e stage got shorter instead: one pbmc3k
// ingest for publicdb (+ preview), one server/upload and two concurrent jobs for wizard (+ cell
// annotation). Nor the deploy stage beside the PostgreSQL one (brief E, 2026-11-29): its image
// build is not I/O-bound — `npm ci` and a vite build of the web app inside it
// (deploy/README.md: 171 s with only sources changed) — and the server files use both cores.
//
// CI before brief E (2026-11-29, 4,503 s in all): e2e 1,776 s (layout walk 334 s), unit + server
// on PGlite ~22 min, server on PostgreSQL ~10 min, deploy ~200 s. Since: static checks in two
// lanes, three engine-heavy files on PGlite only (~300 s of one worker off the PostgreSQL stage),
// the layout walk in half the views (132 → 68), the e2e fixtures made once in a global setup.
// the two server files that skip on PGlite are not imported here (scripts/test/pglite-only.mjs)
vitest(
  'unit+server (PGlite)',
  ['unit', 'server'],
  { CELLCLOUD_TEST_DB: 'pglite' },
  POSTGRES_ONLY.flatMap((f) => ['--exclude', f]),
);

const pgUrl = process.env.CELLCLOUD_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgUp = await portOpen(new URL(pgUrl).hostname, Number(new URL(pgUrl).port || 5432));
if (pgUp) {
  // engine-heavy files whose SQL other files run on PostgreSQL, and the files that skip on
  // PostgreSQL: PGlite only (scripts/test/pglite-only.mjs)
  vitest(
    'server (PostgreSQL)',
    ['server'],
    { CELLCLOUD_TEST_DB: 'postgres', CELLCLOUD_TEST_PG_URL: pgUrl },
    PGLITE_ONLY.flatMap((f) => ['--exclude', f]),
  );
} else if (inCI) {
  console.error(`✖ PostgreSQL is required under CI=true but ${pgUrl} is not reachable`);
  results.push({ label: 'server (PostgreSQL)', code: 1, passed: 0, failed: 1, skipped: 0 });
} else {
  console.warn(`\n⚠ SKIPPED the PostgreSQL run: nothing listens at ${pgUrl} (set CELLCLOUD_TEST_PG_URL)`);
}

// deploy/ (issue 34): the Helm chart renders and validates, the container image builds under
// podman on a cached Debian base and runs as API and worker (deploy/README.md, "Tests").
vitest('deploy (chart, podman image)', ['deploy'], { CELLCLOUD_TEST_PG_URL: pgUrl });

vitest('e2e (Chromium)', ['e2e'], {
  CELLCLOUD_CHROMIUM: chromium,
  CELLCLOUD_E2E_WORKERS: String(e2eWorkers),
});

console.log('\n━━ summary ━━');
let p = 0,
  f = 0,
  s = 0;
for (const r of results) {
  console.log(`${r.label}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  for (const line of r.failures ?? []) console.log(`  ✖ ${line}`);
  p += r.passed;
  f += r.failed;
  s += r.skipped;
}
console.log('\n━━ stages (wall seconds) ━━');
for (const [label, seconds] of stages) console.log(`${label}: ${seconds.toFixed(0)} s`);
console.log(`whole suite: ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s`);
console.log(`tests: ${p} passed, ${f} failed, ${s} skipped`);
process.exit(f > 0 || results.some((r) => r.code !== 0) ? 1 : 0);
