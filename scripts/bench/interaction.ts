/**
 * `npm run bench:interaction [-- 10k 100k] [--threads N]`: seconds for the CellPhoneDB statistical
 * method (1000 label permutations, ≤ 500 cells sampled per type) on synthetic datasets of 10k
 * cells / 10 types and 100k cells / 30 types. Genes are the CellPhoneDB v5 gene symbols (plus
 * 2,000 unrelated genes); each type expresses each gene with its own probability, so the number
 * of interactions kept and the density look like real data. Prints wall seconds for sampling +
 * real means, the permutations, the tables, and the total, with the thread count and load average.
 * The normalized matrix is computed before timing (the task's result handle caches it).
 */
import { availableParallelism, loadavg } from 'node:os';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { definition as interactionTask } from '../../packages/tasks/src/interaction/contract';
import { defaultResourcesDir, nodeResourceReader } from '../../packages/engine/src/cli/node-resources';
import { Random } from '../../packages/engine/src/methods/random';
import { runInteraction } from '../../packages/tasks/src/interaction/engine';
import { loadCpdbDatabase } from '../../packages/tasks/src/interaction/engine/database';
import { MemorySink } from '../../packages/engine/src/tasks/memory-sink';
import type { ResultHandle, TaskProgress } from '../../packages/engine/src/tasks/types';

const args = process.argv.slice(2);
const threadsArg = args.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(args[threadsArg + 1]) : Math.min(availableParallelism(), 8);
const cases = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--threads');
const CASES: Record<string, { cells: number; types: number }> = {
  '10k': { cells: 10_000, types: 10 },
  '100k': { cells: 100_000, types: 30 },
  // same types as 10k, ten times the cells: with ≤ 500 sampled per type the time must not grow
  '100k-10types': { cells: 100_000, types: 10 },
};
const resources = nodeResourceReader(defaultResourcesDir());
const db = await loadCpdbDatabase(resources);
const symbols = [...new Set(db.genes.map((g) => g.hgncSymbol))];
for (let i = 0; i < 2000; i++) symbols.push(`SYNTH${i}`);

/**
 * Normalized-looking values: type t expresses gene g in a fraction p[t][g] of its cells. 600
 * distinct cells are drawn per type; the rest repeat them (same type), which keeps generation fast.
 */
function synthetic(nCells: number, nTypes: number, seed: number): { matrix: CountMatrix; labels: string[] } {
  const rng = new Random(seed);
  const nGenes = symbols.length;
  const p = Float64Array.from({ length: nTypes * nGenes }, () => {
    const u = rng.uniform();
    return u < 0.6 ? 0.02 * rng.uniform() : u < 0.9 ? 0.2 * rng.uniform() : 0.3 + 0.5 * rng.uniform();
  });
  const labels: string[] = [];
  const indptr = new Float64Array(nCells + 1);
  const idx: number[] = [];
  const val: number[] = [];
  const templates = Math.min(nCells, nTypes * 600);
  for (let c = 0; c < nCells; c++) {
    const t = c % nTypes;
    labels.push(`type${String(t).padStart(2, '0')}`);
    if (c < templates) {
      for (let g = 0; g < nGenes; g++) {
        if (rng.uniform() < p[t * nGenes + g]!) {
          idx.push(g);
          val.push(Math.log1p(1 + 4 * rng.uniform()));
        }
      }
    } else {
      const src = c % templates;
      for (let k = indptr[src]!; k < indptr[src + 1]!; k++) {
        idx.push(idx[k]!);
        val.push(val[k]!);
      }
    }
    indptr[c + 1] = idx.length;
  }
  return {
    matrix: { nGenes, nCells, indptr, indices: Uint32Array.from(idx), data: Float32Array.from(val) },
    labels,
  };
}

function handle(matrix: CountMatrix, labels: string[]): ResultHandle {
  const index = new Map(symbols.map((s, g) => [s, g]));
  return {
    nCells: matrix.nCells,
    nGenes: matrix.nGenes,
    barcodes: labels.map((_, c) => `cell${c}`),
    genes: { ids: symbols, symbols },
    species: 'human',
    counts: () => matrix,
    normalized: () => matrix,
    obsKeys: () => [{ key: 'type', kind: 'categorical' }],
    obs: (key) => (key === 'type' ? { kind: 'categorical', values: labels } : undefined),
    embeddingNames: () => [],
    embedding: () => undefined,
    geneIndex: (name) => index.get(name) ?? -1,
  };
}

console.log(
  `bench:interaction — ${threads} thread(s), ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}`,
);
for (const name of cases.length ? cases : Object.keys(CASES)) {
  const spec = CASES[name];
  if (!spec) throw new Error(`unknown case ${name} (${Object.keys(CASES).join(', ')})`);
  const tGen = performance.now();
  const { matrix, labels } = synthetic(spec.cells, spec.types, 1);
  const genSeconds = (performance.now() - tGen) / 1000;
  const marks: Record<string, number> = {};
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const onProgress = (p: TaskProgress) => {
    if (!(p.step in marks)) marks[p.step] = performance.now();
  };
  const run = await runInteraction(
    {
      result: handle(matrix, labels),
      params: interactionTask.params.parse({ groupBy: 'type' }),
      onProgress,
      sink: new MemorySink(),
      resources,
    },
    { threads },
  );
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const s = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
  const perm0 = marks.permutations ?? t0;
  const tables = marks.tables ?? t1;
  console.log(
    `${name}: ${spec.cells} cells / ${spec.types} types (${matrix.indices.length.toLocaleString('en-US')} non-zeros, generated in ${genSeconds.toFixed(1)} s), ` +
      `${run.summary.cellTypes.reduce((x, t) => x + t.sampled, 0)} cells sampled, ${run.summary.nInteractions} interactions × ${run.summary.pairs.length} pairs: ` +
      `sampling + real means ${s(t0, perm0)} s, 1000 permutations ${s(perm0, tables)} s, tables ${s(tables, t1)} s, total ${s(t0, t1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (whole process, all threads) ` +
      `(load ${loadavg()[0]!.toFixed(2)})`,
  );
}
