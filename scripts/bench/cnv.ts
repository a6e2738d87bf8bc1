/**
 * npm run bench:cnv — CNV inference (issue 17, task `cnv`) and ITH at 10k and 50k cells.
 *
 * Each size runs in its own child process: the planted-event generator (scripts/synth/cnv-planted.ts,
 * hg38 genes, every 8th gene of the copykat table (~6,700), base means × 0.35 so that ~30 % of
 * entries are non-zero: ~2,000 non-zeros per cell, 10x-like) builds the dataset, then `cnv` runs with references normal_T + normal_M
 * (default parameters: 5,000-cell reference cap, HCL subclones per sample) into a MemorySink, then
 * `ith` (dist, by cell type, 500-cell cap). Prints wall seconds per task, peak RSS of the child
 * (includes the generated matrix) and the RSS before the task, and the planted-arm recovery.
 *   npm run bench:cnv [-- 10000 50000]
 */
import { spawnSync } from 'node:child_process';
import { definition as cnvTask } from '../../packages/tasks/src/cnv/contract';
import { definition as ithTask } from '../../packages/tasks/src/ith/contract';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { engine as cnvEngineTask } from '../../packages/tasks/src/cnv/engine';
import { engine as ithEngineTask } from '../../packages/tasks/src/ith/engine';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { cnvPlantedData, readPlantedGenes } from '../synth/cnv-planted';

const mb = (b: number) => Math.round(b / 1048576);

async function one(cells: number): Promise<void> {
  const t0 = performance.now();
  const d = cnvPlantedData(readPlantedGenes(SHARED_DATA_DIR, 'hg38', 8), {
    cellsPerType: Math.round(cells / 4),
    seed: 11,
    meanScale: 0.35,
  });
  const nnz = d.counts.indptr[d.counts.nCells];
  const gen = (performance.now() - t0) / 1000;
  const result = resultHandleFromDataset(
    {
      counts: d.counts,
      genes: d.genes,
      cells: {
        barcodes: d.barcodes,
        columns: {
          cell_type: { kind: 'categorical', values: d.cellType },
          'Sample ID': { kind: 'categorical', values: d.sample },
        },
      },
      embeddings: {},
    },
    { species: 'human' },
  );
  result.normalized();
  const rssBefore = process.memoryUsage().rss;
  const resources = nodeResourceReader(SHARED_DATA_DIR);
  const sink = new MemorySink();
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  const summary = await cnvEngineTask.run({
    result,
    params: cnvTask.params.parse({ groupBy: 'cell_type', reference: ['normal_T', 'normal_M'] }),
    onProgress: () => {},
    sink,
    resources,
  });
  const cnvSeconds = (performance.now() - t1) / 1000;
  const c = process.cpuUsage(cpu1);
  const cnvCpu = (c.user + c.system) / 1e6;
  const arms = new Map<string, number>();
  for (const [g, kind, , arm, mean] of sink.tables.get('arm_groups')!.rows)
    if (kind === 'type') arms.set(`${g} ${arm}`, Number(mean));
  const recovered = d.events.filter((e) => {
    const v = arms.get(`${e.type} ${e.arm}`)!;
    return e.kind === 'loss' ? v < 0.96 : v > 1.04;
  }).length;
  let refMax = 0;
  for (const [k, v] of arms) if (k.startsWith('normal')) refMax = Math.max(refMax, Math.abs(v - 1));
  const t2 = performance.now();
  await ithEngineTask.run({
    result,
    params: ithTask.params.parse({ groupBy: 'cell_type' }),
    onProgress: () => {},
    sink: new MemorySink(),
    resources,
  });
  const ithSeconds = (performance.now() - t2) / 1000;
  console.log(
    JSON.stringify({
      cells,
      genes: d.counts.nGenes,
      nnz,
      generateSeconds: +gen.toFixed(1),
      genesUsed: summary.nGenesUsed,
      reference: summary.nReference,
      cnvSeconds: +cnvSeconds.toFixed(1),
      cnvCpuSeconds: +cnvCpu.toFixed(1),
      ithSeconds: +ithSeconds.toFixed(1),
      rssBeforeMB: mb(rssBefore),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      planted: `${recovered}/${d.events.length} recovered`,
      referenceMaxArmDeviation: +refMax.toFixed(4),
      load: (await import('node:os')).loadavg()[0].toFixed(1),
    }),
  );
}

if (process.argv[2] === '--one') {
  await one(Number(process.argv[3]));
} else {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  for (const n of sizes.length ? sizes : [10_000, 50_000]) {
    const r = spawnSync('npx', ['tsx', import.meta.filename, '--one', String(n)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (r.status !== 0) {
      console.log(`${n} cells: failed (exit ${r.status})`);
      continue;
    }
    const line = r.stdout.trim().split('\n').pop()!;
    const o = JSON.parse(line) as Record<string, number | string>;
    console.log(
      `${o.cells} cells × ${o.genes} genes (${o.nnz} non-zeros, ${o.genesUsed} genes kept, ${o.reference} reference cells): ` +
        `cnv ${o.cnvSeconds} s wall (${o.cnvCpuSeconds} s CPU), ith ${o.ithSeconds} s, peak RSS ${o.peakRssMB} MB (before the task ${o.rssBeforeMB} MB); ` +
        `${o.planted}, reference max |arm mean − 1| ${o.referenceMaxArmDeviation}; load ${o.load}`,
    );
  }
}
