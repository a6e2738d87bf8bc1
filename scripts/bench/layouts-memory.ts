/**
 * `npm run bench:engine -- layouts-memory [200000 500000 …]` (issue 33): the memory per cell of the
 * streamed run's steps on the PCs above STREAMED_ALL_LAYOUTS_MAX_CELLS — batch (none), neighbours,
 * clusters and the 2-D UMAP started in its worker threads once the graph exists, as runAnalysisStreamed
 * runs them — on synthetic PCs (ten Gaussian clusters, 50 components of falling variance), each
 * size in its own child process. Prints the peak RSS above the PCs (VmHWM reset after they are
 * made) per cell beside the figures estimateStreamedMemoryBytes counts for that phase (32 MiB +
 * 1,887 B per cell for neighbours, clusters and the 2-D UMAP, + 57 MiB + 224 B per cell per extra
 * Leiden thread: packages/engine/src/memory.ts, fitted to this bench and synth1m), with wall and
 * CPU seconds and the load average. Asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { withMallocTunables } from '@cellcloud/engine/malloc-tunables';
import { Random } from '@cellcloud/engine/methods/random';
import { BatchStep } from '@cellcloud/engine/steps/batch';
import { ClustersStep } from '@cellcloud/engine/steps/clusters';
import { NeighborsStep } from '@cellcloud/engine/steps/neighbors';
import type { PcaResult } from '@cellcloud/engine/steps/pca';
import { UmapStep } from '@cellcloud/engine/steps/umap';
import { batchOnPcs } from '@cellcloud/engine/stream/run-streamed';

const N_PCS = 50;
const MiB = 2 ** 20;

/** Ten Gaussian clusters in N_PCS components whose spread falls with the component (seeded; cell i in cluster i % 10). */
export function syntheticPcs(n: number): PcaResult {
  const rng = new Random(11);
  const sd = Array.from({ length: N_PCS }, (_, j) => 8 / (1 + j / 3));
  const centers = Array.from({ length: 10 }, () => sd.map((s) => s * rng.normal()));
  const pcs = new Float64Array(n * N_PCS);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < N_PCS; j++) pcs[i * N_PCS + j] = centers[i % 10][j] + 0.4 * sd[j] * rng.normal();
  const total = sd.reduce((a, s) => a + s * s, 0);
  return { pcs, nComputed: N_PCS, varianceRatio: Float64Array.from(sd, (s) => (s * s) / total) };
}

const hwmMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const rssMiB = () => process.memoryUsage.rss() / MiB;

async function child(n: number): Promise<void> {
  const pca = syntheticPcs(n);
  const sampleOfCell = new Int32Array(n);
  const base = rssMiB();
  writeFileSync('/proc/self/clear_refs', '5');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const batch = await batchOnPcs(
    pca,
    sampleOfCell,
    Int32Array.from({ length: n }, (_, c) => c),
  );
  const neighbors = new NeighborsStep(batch);
  const clusters = new ClustersStep(neighbors);
  const umap = new UmapStep(batch, neighbors);
  const seed = { seed: 42 };
  const phase: string[] = [];
  const mark = (name: string) =>
    phase.push(
      `${name} ${((performance.now() - t0) / 1000).toFixed(0)} s, peak ${(hwmMiB() - base).toFixed(0)} MiB`,
    );
  await batch.compute(BatchStep.defaults());
  mark('batch');
  await neighbors.compute({});
  mark('neighbours');
  umap.start(seed);
  await clusters.compute(ClustersStep.defaults());
  mark('clusters');
  await umap.compute(seed);
  mark('umap');
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const peak = hwmMiB() - base;
  console.log(
    `${n.toLocaleString('en')} cells (${batch.value.dims} PCs used, ${clusters.value.labels.length} clusters): ` +
      `peak ${peak.toFixed(0)} MiB above the PCs (${base.toFixed(0)} MiB before) = ` +
      `${((peak * MiB) / n).toFixed(0)} B per cell (estimateStreamedMemoryBytes' clustering phase: 32 MiB + 1,887 B per cell, + 57 MiB + 224 B per cell per extra thread); ` +
      `${wall.toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} s CPU; load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  console.log(`  ${phase.join('; ')}`);
  await umap.cancel();
}

// a child of benchLayoutsMemory (this file run directly), not engine.ts importing it
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  await child(Number(process.argv[3]));
  process.exit(0);
}

/** The parent: one child process per size (a fresh peak RSS each). */
export function benchLayoutsMemory(sizes: number[]): void {
  for (const n of sizes) {
    const r = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', String(n)],
      {
        stdio: 'inherit',
        env: withMallocTunables(process.env),
      },
    );
    if (r.status !== 0) console.log(`${n} cells: exit ${r.status ?? r.signal}`);
  }
}
