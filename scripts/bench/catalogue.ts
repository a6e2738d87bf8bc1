/**
 * `npm run bench:catalogue`: the public database search (issue 20) over a generated catalogue of
 * 10,000 datasets (`-- <rows>` for another size) in a scratch in-memory PGlite (or
 * BENCH_DATABASE_URL, a scratch PostgreSQL database): insert time, then p50 / p95 / max of 300
 * searches (full text, facets, both, sorted, paged), each also computing the five facet counts.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDb } from '../../apps/server/src/db/client';
import { migrate } from '../../apps/server/src/db/migrate';
import { publicDatasetsRepo } from '../../apps/server/src/db/repos/public-datasets';
import { publicSearchQuery } from '../../packages/contracts/src/public-datasets';

const N = Number(process.argv[2] ?? 10_000);
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

async function main() {
  const db = await openDb({ url: process.env.BENCH_DATABASE_URL });
  await migrate(db);
  let t = performance.now();
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
  console.log(`catalogue: ${N} rows inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const queries = [
    () => ({ q: pick(TISSUES).split(' ')[0] }),
    () => ({ q: `${pick(WORDS).slice(0, 4)} ${pick(TISSUES).slice(0, 3)}` }),
    () => ({ tissue: pick(TISSUES), disease: pick(DISEASES) }),
    () => ({ q: pick(TYPES).split(' ')[0], species: 'Homo sapiens', sort: 'cells', order: 'desc' }),
    () => ({ assay: `${pick(ASSAYS)},${pick(ASSAYS)}`, sort: 'year', page: '3' }),
    () => ({}),
  ];
  const times: number[] = [];
  // CPU time of this process per search: the whole query cost with the in-process PGlite (the
  // machine is shared, wall time under load is pessimistic); with PostgreSQL only the client's part.
  const cpuTimes: number[] = [];
  const byKind = queries.map(() => [] as number[]);
  for (let i = 0; i < 300; i++) {
    const s = publicSearchQuery.parse(queries[i % queries.length]!());
    t = performance.now();
    const c = process.cpuUsage();
    await publicDatasetsRepo.search(db, s);
    const used = process.cpuUsage(c);
    cpuTimes.push((used.user + used.system) / 1000);
    times.push(performance.now() - t);
    byKind[i % queries.length]!.push(performance.now() - t);
  }
  const kinds = [
    'one word',
    'two prefixes',
    'two facets',
    'word+species by cells',
    'assay any-of by year p3',
    'everything',
  ];
  for (const [k, ts] of byKind.entries()) {
    ts.sort((a, b) => a - b);
    console.log(`  ${kinds[k]}: median ${ts[Math.floor(ts.length / 2)]!.toFixed(1)} ms`);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const at = (p: number, xs = times) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(1);
  console.log(
    `search (with 5 facet counts), 300 queries over ${N} datasets: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms wall; ` +
      `CPU p50 ${at(0.5, cpuTimes)} ms, p95 ${at(0.95, cpuTimes)} ms (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  await db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
