/**
 * npm run bench:threads [-- pbmc3k synth20k] — the engine's multi-threaded steps on a loaded
 * machine (issue 33, docs/engine-scaling.md#what-uses-both-cores): the PCA (scaledSparsePca over
 * the HVG submatrix, as the pca step calls it) and the neighbour search (knnLists, k = 15 on 30 PCs)
 * of pbmc3k and synth20k, each dataset in a fresh child process, once per artificial load.
 *
 * BENCH_LOAD=0,4,8 (default) — for each N, N busy-loop processes run beside the child (started and
 * stopped by this script), as other jobs on a shared host would; prints per step the wall and CPU
 * seconds and the wall/CPU ratio (1 thread fully served ≈ 1, two cores fully used ≈ 0.5, a starved
 * process ≫ 1), the load average, and one JSON line per run. CELLCLOUD_ENGINE_THREADS sets the
 * threads as for a job (default 2). BENCH_THREADS_REPEAT=r repeats each step r times (default 2;
 * the figures are their sums).
 *
 * The inputs (HVG submatrix after every default step up to the PCA) are computed once and cached in
 * the temporary folder. Engine modules are imported by relative path so that the same script runs
 * against an older engine checked out beside it (e.g. `git archive` of an earlier commit into a
 * folder with this script and a node_modules link) for before/after figures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { knnLists } from '../../packages/engine/src/methods/knn-search';
import { subsetGenes } from '../../packages/engine/src/sparse';
import { MAX_SCALED_VALUE, PCA_START_SEED, scaledSparsePca } from '../../packages/engine/src/steps/pca';
import { N_NEIGHBORS } from '../../packages/engine/src/steps/neighbors';
import { syntheticDataset } from '../../packages/engine/src/synthetic';
import { engineThreads } from '../../packages/engine/src/threads';

const NAMES = ['pbmc3k', 'synth20k'] as const;
type Name = (typeof NAMES)[number];
const KNN_DIMS = 30;

const cacheFile = (name: Name) => path.join(tmpdir(), `cellcloud-bench-threads-${name}.bin`);

/** The HVG submatrix the pca step works on (every default up to the PCA), cached. */
async function pcaInput(name: Name): Promise<CountMatrix> {
  const file = cacheFile(name);
  if (!existsSync(file)) {
    const dataset =
      name === 'pbmc3k'
        ? await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, 'pbmc3k/10x')))
        : syntheticDataset({ nCells: 20_000, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 }).dataset;
    // imported here only: the measured children read the cache and load no more than they time
    const { AnalysisRunner } = await import('../../packages/engine/src/runner');
    const runner = new AnalysisRunner({ oneShot: true, releaseSamples: true });
    const stop = new Error('stop at the pca step');
    let sub: CountMatrix | undefined;
    try {
      await runner.run([{ name, dataset }], {}, (e) => {
        if (e.step !== 'pca') return;
        sub = subsetGenes(runner.normalize.value, runner.hvg.value.selected, false);
        throw stop;
      });
    } catch (e) {
      if (e !== stop) throw e;
    } finally {
      runner.free();
    }
    if (!sub) throw new Error(`bench threads: the pipeline did not reach the pca step on ${name}`);
    const head = new Float64Array([sub.nCells, sub.nGenes, sub.indices.length]);
    const parts = [head, Float64Array.from(sub.indptr), sub.indices, sub.data];
    writeFileSync(file, Buffer.concat(parts.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
  }
  const bytes = readFileSync(file);
  const [nCells, nGenes, nnz] = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + 24));
  // shared memory, as the pca step's submatrix (its products run on worker threads too)
  const shared = <T extends Float64Array | Uint32Array | Float32Array>(
    Kind: { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
    at: number,
    length: number,
  ): T => {
    const out = new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));
    new Uint8Array(out.buffer).set(bytes.subarray(at, at + out.byteLength));
    return out;
  };
  const indptr = shared(Float64Array, 24, nCells + 1);
  const indices = shared(Uint32Array, 24 + indptr.byteLength, nnz);
  const data = shared(Float32Array, 24 + indptr.byteLength + indices.byteLength, nnz);
  return { nCells, nGenes, indptr, indices, data } as unknown as CountMatrix;
}

interface Timed {
  wall: number;
  cpu: number;
}

async function timed(repeat: number, f: () => unknown): Promise<Timed> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let r = 0; r < repeat; r++) await f();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

async function child(name: Name, load: number): Promise<void> {
  const sub = await pcaInput(name);
  const repeat = Number(process.env.BENCH_THREADS_REPEAT ?? 2);
  const load0 = loadavg()[0];
  let pcs = new Float64Array(0);
  let nComputed = 0;
  const pca = await timed(repeat, () => {
    ({ pcs, nComputed } = scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, false));
  });
  const n = sub.nCells;
  const coords = new Float32Array(n * KNN_DIMS);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < KNN_DIMS; j++) coords[i * KNN_DIMS + j] = pcs[i * nComputed + j];
  const knn = await timed(repeat, () => knnLists(coords, n, KNN_DIMS, N_NEIGHBORS));
  const threads = engineThreads();
  const load1 = loadavg()[0];
  const row = (step: string, t: Timed) =>
    `  ${step.padEnd(10)} wall ${t.wall.toFixed(2).padStart(7)} s  CPU ${t.cpu.toFixed(2).padStart(7)} s  wall/CPU ${(t.wall / t.cpu).toFixed(2)}`;
  console.log(
    `${name}: ${n} cells × ${sub.nGenes} HVGs, ${sub.indices.length} non-zeros; ${threads} thread(s), ` +
      `${load} busy processes beside, load ${load0.toFixed(1)} → ${load1.toFixed(1)}, ×${repeat}`,
  );
  console.log(row('pca', pca));
  console.log(row('neighbors', knn));
  const fig = (t: Timed) => ({
    wall: +t.wall.toFixed(2),
    cpu: +t.cpu.toFixed(2),
    ratio: +(t.wall / t.cpu).toFixed(2),
  });
  console.log(
    JSON.stringify({
      dataset: name,
      threads,
      busy: load,
      repeat,
      pca: fig(pca),
      neighbors: fig(knn),
      loadavg: loadavg().map((x) => +x.toFixed(2)),
    }),
  );
}

/** N busy-loop processes (the artificial load); stopped by stopBusy. */
function startBusy(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

function stopBusy(busy: ChildProcess[]): void {
  for (const p of busy) p.kill('SIGKILL');
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] as Name, Number(args[2]));
  process.exit(0);
}
const chosen = (args.length ? args : NAMES) as Name[];
const loads = (process.env.BENCH_LOAD ?? '0,4,8').split(',').map(Number);
for (const name of chosen) {
  if (!NAMES.includes(name)) throw new Error(`unknown dataset "${name}"; choose from ${NAMES.join(', ')}`);
  // the cached input first, on an unloaded machine (not measured)
  if (!existsSync(cacheFile(name))) await pcaInput(name);
  for (const load of loads) {
    const busy = startBusy(load);
    try {
      spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), '--child', name, String(load)],
        {
          stdio: 'inherit',
        },
      );
    } finally {
      stopBusy(busy);
    }
  }
}
