/**
 * `npm run bench:regulons [-- 1k 5k 20k] [--threads N] [--max-targets M]`: wall seconds and peak RSS of the regulons
 * task (issue 18) on synthetic data: cells in 10 types, genes = the DoRothEA A–C TFs and targets
 * (human) up to 2,000, every cell used for the network (cellsPerType = cells / 10), all 2,000 genes
 * as candidate targets. Each type has its own set of active TFs whose evidenced targets follow the
 * TF (log-normal noise), so regulons exist to be found. Prints the network seconds separately and
 * the process CPU seconds (all threads: wall time is pessimistic on a loaded machine).
 */
import { availableParallelism, loadavg } from 'node:os';
import { definition as regulonsTask } from '../../packages/tasks/src/regulons/contract';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { defaultResourcesDir, nodeResourceReader } from '../../packages/engine/src/cli/node-resources';
import { Random } from '../../packages/engine/src/methods/random';
import { loadDorothea, runRegulons } from '../../packages/tasks/src/regulons/engine';
import { MemorySink } from '../../packages/engine/src/tasks/memory-sink';
import type { ResultHandle, TaskProgress } from '../../packages/engine/src/tasks/types';

const args = process.argv.slice(2);
const ti = args.indexOf('--threads');
const threads = ti >= 0 ? Number(args[ti + 1]) : Math.min(availableParallelism(), 8);
const CASES: Record<string, number> = { '1k': 1000, '5k': 5000, '20k': 20000 };
const mi = args.indexOf('--max-targets');
const maxTargets = mi >= 0 ? Number(args[mi + 1]) : 2000;
const cases = args.filter(
  (a, i) => !a.startsWith('--') && !['--threads', '--max-targets'].includes(args[i - 1]!),
);
const resources = nodeResourceReader(defaultResourcesDir());
const evidence = await loadDorothea(resources, 'human', 'C');
const tfs = [...evidence.keys()].sort();
const genes = [...tfs];
for (const tf of tfs)
  for (const t of evidence.get(tf)!) if (genes.length < 2000 && !genes.includes(t)) genes.push(t);
const index = new Map(genes.map((g, i) => [g, i]));

function synthetic(nCells: number): { matrix: CountMatrix; labels: string[] } {
  const rng = new Random(1);
  const nTypes = 10;
  const active = Array.from({ length: nTypes }, () => new Set(tfs.filter(() => rng.uniform() < 0.15)));
  const indptr = new Float64Array(nCells + 1);
  const idx: number[] = [];
  const val: number[] = [];
  const labels: string[] = [];
  const v = new Float64Array(genes.length);
  for (let c = 0; c < nCells; c++) {
    const t = c % nTypes;
    labels.push(`type${t}`);
    v.fill(0);
    for (let g = 0; g < genes.length; g++) if (rng.uniform() < 0.05) v[g] = Math.log1p(1 + 3 * rng.uniform());
    for (const tf of active[t]!) {
      if (rng.uniform() < 0.6) {
        const level = Math.log1p(2 + 4 * rng.uniform());
        v[index.get(tf)!] = level;
        for (const target of evidence.get(tf)!) {
          const g = index.get(target);
          if (g !== undefined && rng.uniform() < 0.5) v[g] = Math.max(v[g]!, level * (0.5 + rng.uniform()));
        }
      }
    }
    for (let g = 0; g < genes.length; g++) {
      if (v[g]! > 0) {
        idx.push(g);
        val.push(v[g]!);
      }
    }
    indptr[c + 1] = idx.length;
  }
  return {
    matrix: {
      nGenes: genes.length,
      nCells,
      indptr,
      indices: Uint32Array.from(idx),
      data: Float32Array.from(val),
    },
    labels,
  };
}

function handle(matrix: CountMatrix, labels: string[]): ResultHandle {
  return {
    nCells: matrix.nCells,
    nGenes: matrix.nGenes,
    barcodes: labels.map((_, c) => `cell${c}`),
    genes: { ids: genes, symbols: genes },
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
  `bench:regulons — ${threads} thread(s), ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}, ${genes.length} genes (${tfs.length} DoRothEA TFs)`,
);
for (const name of cases.length ? cases : ['1k']) {
  const n = CASES[name];
  if (!n) throw new Error(`unknown case ${name} (${Object.keys(CASES).join(', ')})`);
  const { matrix, labels } = synthetic(n);
  let peak = process.memoryUsage.rss();
  const marks: Record<string, number> = {};
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let shown = 0;
  const summary = await runRegulons(
    {
      result: handle(matrix, labels),
      params: regulonsTask.params.parse({ groupBy: 'type', cellsPerType: n / 10, maxTargets }),
      onProgress: (p: TaskProgress) => {
        peak = Math.max(peak, process.memoryUsage.rss());
        if (!(p.step in marks)) marks[p.step] = performance.now();
        // a line per tenth of the network (a run cut short still gives the rate)
        const tenth = Math.floor(((p.fraction - 0.05) / 0.7) * 10);
        if (p.step === 'network' && tenth > shown) {
          shown = tenth;
          const c = process.cpuUsage(cpu0);
          console.log(
            `  network ${tenth * 10} %: ${((performance.now() - t0) / 1000).toFixed(0)} s, CPU ${((c.user + c.system) / 1e6).toFixed(0)} s (load ${loadavg()[0]!.toFixed(1)})`,
          );
        }
      },
      sink: new MemorySink(),
      resources,
    },
    { threads },
  );
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const net = ((marks.aucell ?? t1) - (marks.network ?? t0)) / 1000;
  console.log(
    `${name}: ${n} cells, ${summary.tfs} TFs, ${summary.targets} targets → ${summary.regulons.length} regulons; network ${net.toFixed(1)} s, total ${((t1 - t0) / 1000).toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, all threads), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB (load ${loadavg()[0]!.toFixed(2)})`,
  );
}
