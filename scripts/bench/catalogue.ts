/**
 * `npm run bench:catalogue`: the public database search (issue 20) over a generated catalogue of
 * 10,000 datasets (`-- <rows>` for another size), on an in-memory PGlite AND on the local
 * PostgreSQL (a scratch database created on BENCH_PG_ADMIN_URL, default
 * postgres://postgres@127.0.0.1:5432/test, and dropped after; `-- --only=pglite|postgres`). The
 * seeded table is ANALYZEd (as autovacuum does with a catalogue this size; without statistics
 * the planner filtered every visible row instead of using the full-text index). Then 300 searches
 * (full text, facets, both, sorted, paged), each computing the five facet counts: p50 / p95 wall
 * and CPU per query kind and overall. CPU = this process (the whole query with the in-process
 * PGlite) plus, on PostgreSQL, the server backends' CPU read from /proc/<pid>/schedstat (same
 * machine), so the figure does not depend on the other engineers' load.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDb, type Db } from '../../apps/server/src/db/client';
import { migrate } from '../../apps/server/src/db/migrate';
import { publicDatasetsRepo } from '../../apps/server/src/db/repos/public-datasets';
import { publicSearchQuery } from '../../packages/contracts/src/public-datasets';

const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
const TISSUES = [
  'blood',
  'lung',
  'liver',
  'kidney',
  'brain',
  'heart',
  'skin',
  'colon',
  'bone marrow',
  'pancreas',
  'spleen',
  'retina',
  'breast',
  'prostate',
  'stomach',
];
const DISEASES = [
  'normal',
  'COVID-19',
  'lung adenocarcinoma',
  'type 2 diabetes mellitus',
  'Alzheimer disease',
  'ulcerative colitis',
  'melanoma',
  'glioblastoma',
];
const ASSAYS = ["10x 3' v2", "10x 3' v3", "10x 5' v1", 'Smart-seq2', 'Drop-seq', 'inDrop'];
const STAGES = ['adult stage', 'fetal stage', 'child stage', 'aged stage'];
const TYPES = [
  'T cell',
  'B cell',
  'NK cell',
  'Monocyte',
  'Macrophage',
  'Fibroblast',
  'Endothelial cell',
  'Epithelial cell',
  'Neuron',
  'Hepatocyte',
  'Alveolar type 2 cell',
  'Podocyte',
];
const WORDS = [
  'atlas',
  'single-cell',
  'landscape',
  'immune',
  'tumour',
  'microenvironment',
  'development',
  'ageing',
  'infection',
  'regeneration',
  'response',
  'profiling',
];

/** Inserts the generated catalogue through the repository (as the ingest does), then ANALYZE. */
async function seedCatalogue(db: Db): Promise<void> {
  seed = 42;
  const t = performance.now();
  const c = process.cpuUsage();
  await db.tx(async (q) => {
    for (let i = 0; i < N; i++) {
      const tissue = pick(TISSUES);
      const disease = pick(DISEASES);
      await publicDatasetsRepo.upsert(q, {
        id: `ds${i}`,
        title: `${pick(WORDS)} ${pick(WORDS)} of human ${tissue} in ${disease} ${i}`,
        description: `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
        species: rand() < 0.7 ? 'Homo sapiens' : 'Mus musculus',
        tissue: [tissue],
        disease: [disease],
        developmentStage: [pick(STAGES)],
        assay: [pick(ASSAYS)],
        cells: Math.floor(500 + rand() * 200_000),
        genes: Math.floor(15_000 + rand() * 20_000),
        samples: [{ id: 'S1', cells: 1000, metadata: {} }],
        article: {
          title: `${pick(WORDS)} study ${i}`,
          journal: pick(['Nature', 'Cell', 'Science']),
          year: 2015 + Math.floor(rand() * 11),
        },
        sourceUrl: null,
        licence: 'CC-BY-4.0',
        annotationLevels: ['annot_full', 'annot_sub'],
        cellTypes: [pick(TYPES), pick(TYPES), pick(TYPES)],
        ontologyIds: [],
        storagePrefix: `public/ds${i}/v1/`,
        levelSummary: { levels: [], mapping: [] },
        properties: {},
      });
    }
  });
  await db.query('ANALYZE public_datasets');
  const cpu = process.cpuUsage(c);
  console.log(
    `  ${N} rows inserted + ANALYZE in ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU of this process`,
  );
}

const QUERIES: [string, () => Record<string, string>][] = [
  ['one word', () => ({ q: pick(TISSUES).split(' ')[0]! })],
  ['two prefixes', () => ({ q: `${pick(WORDS).slice(0, 4)} ${pick(TISSUES).slice(0, 3)}` })],
  ['two facets', () => ({ tissue: pick(TISSUES), disease: pick(DISEASES) })],
  [
    'word+species by cells',
    () => ({ q: pick(TYPES).split(' ')[0]!, species: 'Homo sapiens', sort: 'cells', order: 'desc' }),
  ],
  ['assay any-of by year p3', () => ({ assay: `${pick(ASSAYS)},${pick(ASSAYS)}`, sort: 'year', page: '3' })],
  ['everything', () => ({})],
];

/** CPU nanoseconds the server processes `pids` have run (0 for PGlite: it runs in this process). */
function backendCpuNs(pids: number[]): number {
  let ns = 0;
  for (const pid of pids) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a backend that ended
    }
  }
  return ns;
}

async function backendPids(db: Db): Promise<number[]> {
  if (db.kind !== 'postgres') return [];
  const rows = await db.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return [
    ...rows.map((r) => r.pid),
    (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid,
  ];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1);
};

/** 300 searches round-robin over the query kinds; prints wall and CPU percentiles. */
async function runSearches(db: Db, label: string): Promise<void> {
  const wall: number[][] = QUERIES.map(() => []);
  const cpu: number[][] = QUERIES.map(() => []);
  for (let i = 0; i < 300 + QUERIES.length; i++) {
    const k = i % QUERIES.length;
    const s = publicSearchQuery.parse(QUERIES[k]![1]());
    const pids = await backendPids(db);
    const b0 = backendCpuNs(pids);
    const c = process.cpuUsage();
    const t = performance.now();
    await publicDatasetsRepo.search(db, s);
    const w = performance.now() - t;
    const used = process.cpuUsage(c);
    const ms = (used.user + used.system) / 1000 + (backendCpuNs(pids) - b0) / 1e6;
    if (i < QUERIES.length) continue; // one warm-up round
    wall[k]!.push(w);
    cpu[k]!.push(ms);
  }
  for (const [k, [name]] of QUERIES.entries())
    console.log(
      `  ${name.padEnd(24)} wall p50 ${pct(wall[k]!, 0.5)} / p95 ${pct(wall[k]!, 0.95)} ms; CPU p50 ${pct(cpu[k]!, 0.5)} / p95 ${pct(cpu[k]!, 0.95)} ms`,
    );
  const all = wall.flat();
  const allCpu = cpu.flat();
  console.log(
    `${label}: 300 searches (with 5 facet counts) over ${N} datasets: wall p50 ${pct(all, 0.5)} / p95 ${pct(all, 0.95)} / max ${pct(all, 1)} ms; ` +
      `CPU p50 ${pct(allCpu, 0.5)} / p95 ${pct(allCpu, 0.95)} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
  );
}

async function bench(label: string, db: Db): Promise<void> {
  console.log(`${label} (load ${os.loadavg()[0]!.toFixed(1)}):`);
  try {
    await migrate(db);
    await seedCatalogue(db);
    await runSearches(db, label);
  } finally {
    await db.close();
  }
}

/** A scratch PostgreSQL database for the run, dropped afterwards. */
async function withScratchPostgres(fn: (url: string) => Promise<void>): Promise<void> {
  const name = `cellcloud_bench_catalogue_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    await fn(PG_ADMIN.replace(/\/[^/]*$/, `/${name}`));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function main() {
  if (ONLY !== 'postgres') await bench('PGlite', await openDb({}));
  if (ONLY !== 'pglite') await withScratchPostgres(async (url) => bench('PostgreSQL', await openDb({ url })));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
