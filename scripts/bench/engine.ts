/**
 * npm run bench:engine [-- pbmc3k synth20k synth100k synth200k synth500k] — the standard pipeline
 * (packages/engine, runAnalysis: merge → QC → filter → Scrublet → normalize → HVG → PCA → graph →
 * Louvain → Wilcoxon markers → UMAP → t-SNE → 3D UMAP) on the real pbmc3k 10x folder and on
 * synthetic negative-binomial data with known clusters (20,000 genes; 20k, 100k, 200k and 500k cells;
 * packages/engine/src/synthetic.ts).
 *
 * Each dataset runs in its own child process so that peak RSS is that run's alone (with the job
 * child's glibc malloc settings, engine malloc-tunables.ts). Prints wall and
 * CPU seconds per step, peak RSS, ARI against the known labels (pbmc3k: Seurat tutorial labels)
 * and the load average, and ends each run with one JSON line:
 * {"dataset","cells","seconds","readToMarkersSeconds","cpuSeconds","peakRssMB","ari",…}.
 * `seconds` = read (pbmc3k) + the whole pipeline; `readToMarkersSeconds` = read + pipeline up to
 * the end of the markers step (which runs before the embeddings); synthetic generation is reported
 * apart. synth200k (4 × 50k) and synth500k (10 × 50k, the issue 14 target: 12 GiB, 15 min) are
 * for the largest-size checks and are not run by default.
 * BENCH_VERBOSE=1 prints each step as it starts, with the RSS at that moment (and the epoch second);
 * BENCH_MEMTRACE=<file> appends process.memoryUsage() (MB: rss, heap, external, arrayBuffers) with
 * the scran.js WebAssembly heap, with the epoch second every 0.5 s to <file> (timer ticks: not inside long synchronous loops); BENCH_PARAMS='{…}'
 * passes analysis parameters (e.g. '{"doubletDetectionAndRemoval":false}'; default: all defaults);
 * BENCH_WRITE=1 also writes the outputs (to a temporary folder, removed after) as a job does —
 * the matrices, columns and markers while the embeddings compute (startOutputs), the rest after
 * (BENCH_WRITE=after: writeOutputs after the pipeline) — and reports the peak RSS of pipeline +
 * writing. BENCH_STOP=markers ends the run once
 * the markers are done (read → markers and peak RSS only: no embeddings, no ARI; the UMAP layouts,
 * which otherwise start alongside the clustering, are not started) — for the peer-matched
 * read → markers figure on a busy machine.
 */
import { spawnSync } from 'node:child_process';
import { heapSize as scranHeapSize } from 'scran.js';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { runAnalysis, type AnalysisResult } from '@cellcloud/engine/run-analysis';
import { startOutputs, writeOutputs, type OutputsInProgress } from '@cellcloud/engine/write-outputs';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { withMallocTunables } from '@cellcloud/engine/malloc-tunables';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import type { Dataset } from '@cellcloud/formats/matrix';
import { benchEmbeddings } from './embeddings';
import { benchLayoutsMemory } from './layouts-memory';
import { benchTsne } from './tsne';
import { benchUmapParallel } from './umap-parallel';
import { printStepTable, StepTimer, stepsJson, type StepTime } from './step-timer';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { STORE_DATASETS, storeChild } from './engine-store';

const DATASETS = ['pbmc3k', 'synth20k', 'synth100k', 'synth200k', 'synth500k'] as const;
type Name = (typeof DATASETS)[number];

interface Loaded {
  samples: { name: string; dataset: Dataset }[];
  truth: Map<string, string>;
  readSeconds: number;
  readCpuSeconds: number;
  generateSeconds: number;
}

/** Cells per sample stay under the docs/product/validation.md#analysis-rules limit (< 100,000): synth100k is two samples of 50k. */
const SYNTH_SAMPLES: Record<Exclude<Name, 'pbmc3k'>, number[]> = {
  synth20k: [20_000],
  synth100k: [50_000, 50_000],
  synth200k: [50_000, 50_000, 50_000, 50_000],
  synth500k: Array.from({ length: 10 }, () => 50_000),
};

/**
 * Peak RSS in MB since the last `resetPeakRss` (Linux: VmHWM, reset through /proc/self/clear_refs,
 * so that the synthetic data's generation does not count), else the process's maxRSS.
 */
let peakWasReset = false;
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    peakWasReset = true;
  } catch {
    peakWasReset = false;
  }
}
function peakRss(): number {
  const hwm = peakWasReset ? /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return Math.round(Number(hwm ? hwm[1] : process.resourceUsage().maxRSS) / 1024);
}

/** BENCH_MEMTRACE: one line per 0.5 s — epoch s, rss, heapUsed, external, arrayBuffers (MB). */
function traceMemory(file: string): void {
  const mb = (b: number) => Math.round(b / 1048576);
  const at = () => (Date.now() / 1000).toFixed(1);
  // worker threads: when each starts and exits (their memory is in the RSS, not in memoryUsage())
  process.on('worker', (w) => {
    const id = w.threadId;
    appendFileSync(file, `${at()} worker ${id} started (RSS ${mb(process.memoryUsage.rss())})\n`);
    w.once('exit', () =>
      appendFileSync(file, `${at()} worker ${id} exited (RSS ${mb(process.memoryUsage.rss())})\n`),
    );
  });
  setInterval(() => {
    const m = process.memoryUsage();
    let wasm = 0;
    try {
      wasm = mb(scranHeapSize()); // the scran.js WebAssembly memory (grows, never shrinks)
    } catch {
      // not initialized yet
    }
    appendFileSync(
      file,
      `${(Date.now() / 1000).toFixed(1)} ${mb(m.rss)} ${mb(m.heapUsed)} ${mb(m.external)} ${mb(m.arrayBuffers)} ${wasm}\n`,
    );
  }, 500).unref();
}

const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

async function load(name: Name): Promise<Loaded> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  if (name === 'pbmc3k') {
    const dataset = await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, 'pbmc3k/10x')));
    const readSeconds = (performance.now() - t0) / 1000;
    const csv = readFileSync(path.join(SHARED_DATA_DIR, 'pbmc3k/pbmc3k_seurat_labels.csv'), 'utf8');
    const truth = new Map(
      csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    return {
      samples: [{ name, dataset }],
      truth,
      readSeconds,
      readCpuSeconds: cpuSince(c0),
      generateSeconds: 0,
    };
  }
  const truth = new Map<string, string>();
  const multi = SYNTH_SAMPLES[name].length > 1;
  const samples = SYNTH_SAMPLES[name].map((nCells, s) => {
    // Same profile seed → the same clusters and markers in every sample; other cells per sample.
    const syn = syntheticDataset({
      nCells,
      nGenes: 20_000,
      nClusters: 10,
      seed: 7,
      cellSeed: 100 + s,
    });
    const sample = `${name}_${s + 1}`;
    syn.dataset.cells.barcodes.forEach((b, i) =>
      truth.set(multi ? `${sample}_${b}` : b, String(syn.truth[i])),
    );
    return { name: sample, dataset: syn.dataset };
  });
  return {
    samples,
    truth,
    readSeconds: 0,
    readCpuSeconds: 0,
    generateSeconds: (performance.now() - t0) / 1000,
  };
}

async function child(name: Name): Promise<void> {
  if (process.env.BENCH_MEMTRACE) traceMemory(process.env.BENCH_MEMTRACE);
  const { samples, truth, readSeconds, readCpuSeconds, generateSeconds } = await load(name);
  const nCells = samples.reduce((a, s) => a + s.dataset.counts.nCells, 0);
  const nnz = samples.reduce((a, s) => a + s.dataset.counts.indices.length, 0);
  console.log(
    `${name}: ${samples.length} sample(s), ${nCells} cells × ${samples[0].dataset.counts.nGenes} genes, ${nnz} non-zeros`,
  );
  if (generateSeconds) {
    console.log(`  generate        ${generateSeconds.toFixed(2)} s, peak RSS ${peakRss()} MB (not counted)`);
    resetPeakRss();
  }
  const t0 = performance.now();
  const params = {
    ...(process.env.BENCH_PARAMS ? JSON.parse(process.env.BENCH_PARAMS) : {}),
  };
  // per step: wall and CPU seconds (CPU > wall where a step uses both cores), from the progress events
  const timer = new StepTimer(t0, Boolean(process.env.BENCH_VERBOSE));
  const cpu0 = process.cpuUsage();
  // the bench hands its sample matrices over (they are emptied once merged), as a one-off job would
  if (process.env.BENCH_STOP === 'markers') {
    await untilMarkers(name, samples, params, timer, readSeconds, readCpuSeconds);
    return;
  }
  // BENCH_WRITE=1: the outputs that do not depend on the embeddings are written while they compute
  // (startOutputs in whileEmbeddings, as a job does), the rest after; BENCH_WRITE=after: all after
  const writeAlongside = Boolean(process.env.BENCH_WRITE) && process.env.BENCH_WRITE !== 'after';
  const outDir = process.env.BENCH_WRITE ? mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-')) : '';
  let outputs: OutputsInProgress | undefined;
  let alongsideSeconds = 0;
  const result = await runAnalysis(samples, params, timer.onProgress, {
    releaseSamples: true,
    ...(writeAlongside
      ? {
          whileEmbeddings: async (early: AnalysisResult) => {
            const a0 = performance.now();
            outputs = await startOutputs(early, directorySink(outDir));
            alongsideSeconds = (performance.now() - a0) / 1000;
          },
        }
      : {}),
  });
  timer.close();
  const pipelineSeconds = (performance.now() - t0) / 1000;
  const readToMarkers = readSeconds + ((timer.markersDone ?? performance.now()) - t0) / 1000;
  const known: string[] = [];
  const found: string[] = [];
  const clusters = result.obs.cluster.kind === 'categorical' ? result.obs.cluster.values : [];
  result.barcodes.forEach((b, i) => {
    const t = truth.get(b);
    if (t !== undefined) {
      known.push(t);
      found.push(clusters[i]);
    }
  });
  const ari = adjustedRandIndex(known, found);
  const cpuSeconds = cpuSince(cpu0);
  const rows: StepTime[] = [...timer.steps];
  if (readSeconds)
    rows.unshift({
      step: 'read',
      wall: readSeconds,
      cpu: readCpuSeconds,
      rssMB: 0,
    });
  const pipelinePeakRssMB = peakRss();
  let writeSeconds: number | undefined;
  if (process.env.BENCH_WRITE) {
    // analysis.h5ad, markers.csv and the explorer artifacts: what was not written alongside the
    // embeddings (their CPU is in the t-SNE row), or everything (BENCH_WRITE=after)
    const w0 = performance.now();
    const cpuW = process.cpuUsage();
    try {
      if (outputs) await outputs.finish(result);
      else await writeOutputs(result, directorySink(outDir));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    writeSeconds = (performance.now() - w0) / 1000;
    rows.push({
      step: outputs ? 'write outputs (rest)' : 'write outputs',
      wall: writeSeconds,
      cpu: cpuSince(cpuW),
      rssMB: 0,
    });
    if (outputs)
      console.log(
        `  written alongside the embeddings: ${alongsideSeconds.toFixed(2)} s wall (matrices, columns, markers)`,
      );
  }
  printStepTable(rows);
  const peakRssMB = peakRss();
  console.log(
    `  cells after QC ${result.counts.nCells}, clusters ${result.clusterLabels.length}, PCs ${result.qc.nPcsUsed}`,
  );
  const whole = readSeconds + pipelineSeconds + (writeSeconds ?? 0);
  const wholeCpu = readCpuSeconds + rows.reduce((a, r) => a + (r.step === 'read' ? 0 : r.cpu), 0);
  console.log(
    `  read → markers ${readToMarkers.toFixed(1)} s, whole job${writeSeconds === undefined ? ' (no writing)' : ' with writing'} ${whole.toFixed(1)} s (CPU ${wholeCpu.toFixed(1)} s), peak RSS ${peakRssMB} MB, ARI ${ari.toFixed(3)}, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    JSON.stringify({
      dataset: name,
      cells: nCells,
      seconds: Number((readSeconds + pipelineSeconds).toFixed(2)),
      readToMarkersSeconds: Number(readToMarkers.toFixed(2)),
      cpuSeconds: Number(cpuSeconds.toFixed(2)),
      peakRssMB,
      ari: Number(ari.toFixed(4)),
      cellsAfterQc: result.counts.nCells,
      clusters: result.clusterLabels.length,
      generateSeconds: Number(generateSeconds.toFixed(2)),
      params,
      ...(writeSeconds === undefined
        ? {}
        : { writeSeconds: Number(writeSeconds.toFixed(2)), pipelinePeakRssMB }),
      steps: stepsJson(rows),
      loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    }),
  );
}

/** Runs the pipeline up to the end of the markers step (the next step's start — tsne — stops it). */
async function untilMarkers(
  name: Name,
  samples: Loaded['samples'],
  params: object,
  timer: StepTimer,
  readSeconds: number,
  readCpuSeconds: number,
): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const stop = new Error('stop after markers');
  try {
    await runAnalysis(
      samples,
      params,
      (e) => {
        timer.onProgress(e);
        if (timer.markersDone !== undefined) throw stop;
      },
      // the UMAP layouts would otherwise run alongside clustering and markers (and count in them)
      { releaseSamples: true, layoutsFrom: 'markers' },
    );
  } catch (e) {
    if (e !== stop) throw e;
  }
  const readToMarkers = readSeconds + ((timer.markersDone ?? performance.now()) - t0) / 1000;
  const rows = timer.steps.filter((r) => r.step !== 'tsne');
  if (readSeconds) rows.unshift({ step: 'read', wall: readSeconds, cpu: readCpuSeconds, rssMB: 0 });
  printStepTable(rows);
  const peakRssMB = peakRss();
  const load = loadavg().map((x) => Number(x.toFixed(2)));
  console.log(
    `  read → markers ${readToMarkers.toFixed(1)} s (CPU ${cpuSince(cpu0).toFixed(1)} s), peak RSS ${peakRssMB} MB, load ${load.join(' ')} (stopped after the markers)`,
  );
  console.log(
    JSON.stringify({
      dataset: name,
      readToMarkersSeconds: Number(readToMarkers.toFixed(2)),
      cpuSeconds: Number(cpuSince(cpu0).toFixed(2)),
      peakRssMB,
      params,
      steps: stepsJson(rows),
      loadavg: load,
    }),
  );
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  // store-backed atlases (synth1m, synth2m, …): the out-of-core path (engine-store.ts)
  if (args[1] in STORE_DATASETS) await storeChild(args[1], peakRss, resetPeakRss);
  else await child(args[1] as Name);
  process.exit(0);
} else if (args[0] === 'embeddings') {
  // the embedding steps alone, previous vs current implementations (scripts/bench/embeddings.ts)
  await benchEmbeddings(args.length > 1 ? args.slice(1).map(Number) : [20_000, 100_000]);
  process.exit(0);
} else if (args[0] === 'layouts-memory') {
  // memory per cell of neighbours, clusters and the 2-D UMAP on synthetic PCs (scripts/bench/layouts-memory.ts)
  benchLayoutsMemory(args.length > 1 ? args.slice(1).map(Number) : [200_000, 500_000]);
  process.exit(0);
} else if (args[0] === 'umap-parallel') {
  // the 2-D UMAP layout, sequential vs partitioned on 1 and 2 threads (scripts/bench/umap-parallel.ts)
  await benchUmapParallel(args.length > 1 ? args.slice(1).map(Number) : [200_000]);
  process.exit(0);
} else if (args[0] === 'tsne') {
  // the 2D t-SNE alone: search, affinities, layout, trustworthiness (scripts/bench/tsne.ts)
  await benchTsne(args.length > 1 ? args.slice(1) : ['pbmc3k', 'synth20k', '20000', '100000']);
  process.exit(0);
} else {
  const chosen = (
    args.length ? args : DATASETS.filter((d) => d !== 'synth200k' && d !== 'synth500k')
  ) as Name[];
  for (const name of chosen) {
    if (!DATASETS.includes(name) && !(name in STORE_DATASETS))
      throw new Error(
        `unknown dataset "${name}"; choose from ${[...DATASETS, ...Object.keys(STORE_DATASETS)].join(', ')}`,
      );
    const r = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', name],
      // glibc malloc settings as the server's job child gets them (engine malloc-tunables.ts)
      { stdio: 'inherit', env: withMallocTunables(process.env) },
    );
    if (r.status !== 0)
      console.log(
        JSON.stringify({
          dataset: name,
          error: `exit ${r.status ?? r.signal}`,
        }),
      );
  }
}
