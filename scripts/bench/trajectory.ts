/**
 * npm run bench:trajectory [-- 5k 10k 100k] — the monocle3 and monocle2 tasks (issue 23) on the
 * synthetic branching data (scripts/synth/branching.ts; 4,240 genes at 5k/10k, 640 at 100k so that
 * generating it stays under a minute). 5k and 10k are the cell counts AFTER downsampling (monocle3
 * cellsPerGroup and monocle2 downsample set so that nothing is dropped); 100k runs with the default
 * downsampling (monocle3: 1000 per cell type → 4,000 cells; monocle2 'auto' → 10,000 cells), whose
 * time is included. Prints seconds per task and one JSON line per run.
 */
import { loadavg } from 'node:os';
import { monocle2Params } from '../../packages/tasks/src/monocle2/contract';
import { monocle3Params } from '../../packages/tasks/src/monocle3/contract';
import { engine as monocle2Engine } from '../../packages/tasks/src/monocle2/engine';
import { engine as monocle3Engine } from '../../packages/tasks/src/monocle3/engine';
import { MemorySink } from '../../packages/engine/src/tasks/memory-sink';
import { spearman } from '../../packages/tasks/src/_shared/engine/trajectory/common';
import { branchingData } from '../synth/branching';
import { syntheticHandle } from './trajectory-data';

const noResources = {
  readBytes: () => Promise.reject(new Error('none')),
  readText: () => Promise.reject(new Error('none')),
  exists: () => Promise.resolve(false),
  list: () => Promise.resolve([]),
};
const CASES = { '5k': 5_000, '10k': 10_000, '100k': 100_000 } as const;
const chosen = (
  process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CASES)
) as (keyof typeof CASES)[];

for (const name of chosen) {
  const cells = CASES[name];
  if (!cells) throw new Error(`unknown case ${name} (5k, 10k, 100k)`);
  const t0 = performance.now();
  const d = branchingData({
    cellsPerSegment: Math.round(cells / 3),
    seed: 11,
    nNoise: cells > 20_000 ? 400 : 4_000,
  });
  const gen = (performance.now() - t0) / 1000;
  const result = syntheticHandle(d);
  const full = cells <= 20_000;
  for (const task of ['monocle3', 'monocle2'] as const) {
    const sink = new MemorySink();
    const rss0 = process.memoryUsage().rss;
    const start = performance.now();
    let used: number;
    let key: string;
    if (task === 'monocle3') {
      const s = await monocle3Engine.run({
        result,
        params: monocle3Params.parse({
          groupBy: 'celltype',
          root: 'start',
          cellsPerGroup: full ? 100_000 : 1000,
        }),
        onProgress: () => {},
        sink,
        resources: noResources,
      });
      used = s.nCells;
      key = 'monocle3_pseudotime';
    } else {
      const s = await monocle2Engine.run({
        result,
        params: monocle2Params.parse({
          groupBy: 'celltype',
          root: 'start',
          downsample: full ? 'none' : 'auto',
        }),
        onProgress: () => {},
        sink,
        resources: noResources,
      });
      used = s.nCells;
      key = 'monocle2_pseudotime';
    }
    const seconds = (performance.now() - start) / 1000;
    const pt = sink.cells.get(key)!.values as Float64Array;
    const pairs = Array.from(pt)
      .map((t, i) => [t, d.time[i]!] as const)
      .filter(([t]) => Number.isFinite(t));
    const rho = spearman(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
    console.log(
      `${name} ${task}: ${used} cells used of ${d.counts.nCells} (${d.counts.nGenes} genes), ${seconds.toFixed(1)} s, Spearman with true time ${rho.toFixed(3)}, RSS +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB (generation ${gen.toFixed(1)} s), load average ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(
      JSON.stringify({
        case: name,
        task,
        cellsTotal: d.counts.nCells,
        cellsUsed: used,
        genes: d.counts.nGenes,
        seconds: +seconds.toFixed(2),
        spearman: +rho.toFixed(4),
      }),
    );
  }
}
