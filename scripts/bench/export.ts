/**
 * npm run bench:export [-- <cells>] — the download exports of issue 21 on a synthetic result:
 * the h5ad and the Seurat bundle through the job's own child entry (download.export.child.ts):
 * the h5ad is analysis.h5ad copied element by element with the streaming writer (plus the saved
 * annotation levels / task columns, none here); the bundle reads analysis.h5ad and writes the zip
 * of 10x MTX counts + normalized values, metadata, embeddings and load_seurat.R; the tables zip
 * (markers.csv + tables.xlsx; no DE results or tasks here) and the figures zip (embeddings by
 * every level — rasterized above 20,000 cells —, QC violins, dot plot, composition; SVG + PNG).
 *
 * The result is built first, as an analysis job builds it: synthetic negative-binomial samples of
 * ≤ 50,000 cells (packages/engine/src/synthetic.ts, 20,000 genes, 10 clusters; 100,000 cells by
 * default = 2 × 50k, like `bench:engine synth100k`) → runAnalysis → writeOutputs into a local
 * storage folder. Every phase runs in its own child process so its peak RSS is its own: the
 * analysis child (pipeline + writing — the job's peak), then one child per export. Prints wall and
 * CPU seconds, output MB, MB/s (output MB per wall second) and peak RSS per export against the
 * analysis's peak, the load average, and one JSON line per phase.
 * Above STORE_MIN_CELLS (or with BENCH_EXPORT_STORE=1) the result is built on the out-of-core path
 * (issue 33) as `bench:engine synth1m` builds it: the synthetic atlas's count stores (samples of
 * 50k cells, scripts/synth/atlas.ts, cached in the temporary folder) → runAnalysisStreamed →
 * writeStreamedOutputs into the same local storage folder, in its own child.
 * BENCH_EXPORT_DIR=<dir> reuses (or keeps) the analysis in that folder instead of a temporary one.
 * BENCH_EXPORT_KINDS=h5ad,tables runs only those exports (default all four; at 1M cells the Seurat
 * bundle alone writes ≈ 10 GB).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAnalysis } from '@cellcloud/engine/run-analysis';
import { writeOutputs } from '@cellcloud/engine/write-outputs';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { runAnalysisStreamed } from '@cellcloud/engine/stream/run-streamed';
import { writeStreamedOutputs } from '@cellcloud/engine/stream/write-streamed';
import type { StreamedSample } from '@cellcloud/engine/stream/types';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import { openCountStore } from '@cellcloud/formats/store';
import { ensureAtlas } from '../synth/atlas';
import { localStorage } from '../../apps/server/src/storage/local';
import type { ChildIo } from '../../apps/server/src/jobs/runner-child-process';
import type { Config } from '../../apps/server/src/config';
import exportChild, { type ExportInput } from '../../apps/server/src/jobs/download.export.child';

const RESULT = 'results/bench';
const H5AD = `${RESULT}/analysis.h5ad`;
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const peakMB = () => Math.round(process.resourceUsage().maxRSS / 1024);
const cpuSeconds = (c: NodeJS.CpuUsage) => Number(((c.user + c.system) / 1e6).toFixed(2));

/** From this size on the analysis is built on count stores (the in-memory path needs ≈ 20 KB per cell). */
const STORE_MIN_CELLS = 300_000;
const useStore = (nCells: number) => nCells >= STORE_MIN_CELLS || process.env.BENCH_EXPORT_STORE === '1';

async function analyzeStored(root: string, nCells: number): Promise<void> {
  const { dir, manifest } = await ensureAtlas(nCells);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const samples: StreamedSample[] = manifest.samples.map((s) => {
    const store = openCountStore(fileRandomAccess(path.join(dir, s.file)));
    const { cells, genes, geneIds, geneSymbols, barcodes } = store;
    return { name: s.name, cells, genes, geneIds, geneSymbols, barcodes };
  });
  const result = await runAnalysisStreamed(samples, {}, () => {});
  const pipelinePeakRssMB = peakMB();
  await writeStreamedOutputs(result, directorySink(path.join(root, RESULT)));
  report('store', nCells, result.counts.nCells, t0, cpu0, pipelinePeakRssMB);
}

/** Prints the analysis phase's figures (and its JSON line) from its start time and CPU. */
function report(
  how: 'store' | 'memory',
  cells: number,
  cellsAfterQc: number,
  t0: number,
  cpu0: NodeJS.CpuUsage,
  pipelinePeakRssMB: number,
): void {
  const r = {
    phase: 'analysis',
    path: how,
    cells,
    cellsAfterQc,
    seconds: Number(((performance.now() - t0) / 1000).toFixed(2)),
    cpuSeconds: cpuSeconds(process.cpuUsage(cpu0)),
    pipelinePeakRssMB,
    peakRssMB: peakMB(),
    loadavg: load(),
  };
  console.log(
    `analysis (${how}): ${r.cells} cells (${r.cellsAfterQc} after QC), ${r.seconds} s wall, ${r.cpuSeconds} s CPU, peak RSS ${r.peakRssMB} MB (pipeline ${r.pipelinePeakRssMB} MB)`,
  );
  console.log(JSON.stringify(r));
}

async function analyze(root: string, nCells: number): Promise<void> {
  if (useStore(nCells)) return analyzeStored(root, nCells);
  const per = Math.ceil(nCells / Math.ceil(nCells / 50_000));
  const samples = [];
  for (let s = 0, left = nCells; left > 0; s++, left -= per) {
    const syn = syntheticDataset({
      nCells: Math.min(per, left),
      nGenes: 20_000,
      nClusters: 10,
      seed: 7,
      cellSeed: 100 + s,
    });
    samples.push({ name: `synth_${s + 1}`, dataset: syn.dataset });
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await runAnalysis(samples, {}, () => {}, { releaseSamples: true });
  const pipelinePeakRssMB = peakMB();
  await writeOutputs(result, directorySink(path.join(root, RESULT)));
  report('memory', nCells, result.counts.nCells, t0, cpu0, pipelinePeakRssMB);
}

const KINDS = ['h5ad', 'seurat', 'tables', 'figures'] as const;
type Kind = (typeof KINDS)[number];
const OUT: Record<Kind, string> = {
  h5ad: 'analysis.h5ad',
  seurat: 'analysis_seurat.zip',
  tables: 'analysis_tables.zip',
  figures: 'analysis_figures.zip',
};

function input(kind: Kind, outKey: string): ExportInput {
  const meta = { outKey, lang: 'en-US' as const, resultName: 'bench' };
  if (kind === 'tables')
    return {
      kind,
      ...meta,
      tables: [{ path: 'markers.csv', sheet: 'markers', key: `${RESULT}/markers.csv`, format: 'csv' }],
    };
  if (kind === 'figures')
    return {
      kind,
      ...meta,
      figures: { artifactsPrefix: `${RESULT}/artifacts/`, extraLevels: [], de: [], tasks: [] },
    };
  return { kind, h5adKey: H5AD, outKey, nCells: 0, extraObs: [] };
}

async function exportOne(root: string, kind: Kind): Promise<void> {
  const storage = localStorage(root);
  const outKey = `downloads/bench/${OUT[kind]}`;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const io: ChildIo = {
    config: {} as Config, // the export entry uses only storage() and progress()
    storage: async () => storage,
    progress: () => {},
  };
  await exportChild(input(kind, outKey), io);
  const seconds = (performance.now() - t0) / 1000;
  const outMB = ((await storage.stat(outKey))?.size ?? 0) / 1024 / 1024;
  const inMB = ((await storage.stat(H5AD))?.size ?? 0) / 1024 / 1024;
  const r = {
    phase: `export-${kind}`,
    inputMB: Number(inMB.toFixed(1)),
    outputMB: Number(outMB.toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    cpuSeconds: cpuSeconds(process.cpuUsage(cpu0)),
    mbPerSecond: Number((outMB / seconds).toFixed(1)),
    peakRssMB: peakMB(),
    loadavg: load(),
  };
  console.log(
    `export ${kind}: ${r.outputMB} MB from a ${r.inputMB} MB analysis.h5ad in ${r.seconds} s wall (${r.cpuSeconds} s CPU) = ${r.mbPerSecond} MB/s, peak RSS ${r.peakRssMB} MB`,
  );
  console.log(JSON.stringify(r));
  await storage.delete(outKey);
}

function runChild(args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status ?? r.signal}`);
  const json = r.stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  return json ? (JSON.parse(json) as Record<string, unknown>) : {};
}

const args = process.argv.slice(2);
if (args[0] === '--analyze') await analyze(args[1]!, Number(args[2]));
else if (args[0] === '--export') await exportOne(args[1]!, args[2] as Kind);
else {
  const nCells = Number(args[0] ?? 100_000);
  if (!Number.isInteger(nCells) || nCells < 100)
    throw new Error(`cells must be an integer ≥ 100, got "${args[0]}"`);
  const keep = process.env.BENCH_EXPORT_DIR;
  const root = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-export-'));
  try {
    mkdirSync(root, { recursive: true });
    // the analysis's figures are kept next to it, so a reused folder still compares with its peak
    const figures = path.join(root, 'analysis.json');
    if (existsSync(path.join(root, H5AD))) console.log(`reusing the analysis in ${root}`);
    else writeFileSync(figures, JSON.stringify(runChild(['--analyze', root, String(nCells)])));
    const analysisPeak = existsSync(figures)
      ? (JSON.parse(readFileSync(figures, 'utf8')) as { peakRssMB: number }).peakRssMB
      : undefined;
    const only = process.env.BENCH_EXPORT_KINDS?.split(',').map((k) => k.trim());
    const unknown = only?.filter((k) => !(KINDS as readonly string[]).includes(k));
    if (unknown?.length)
      throw new Error(`BENCH_EXPORT_KINDS: unknown ${unknown.join(', ')} (${KINDS.join(', ')})`);
    for (const kind of KINDS.filter((k) => !only || only.includes(k))) {
      const r = runChild(['--export', root, kind]);
      if (analysisPeak)
        console.log(
          `  export ${kind} peak RSS ${String(r.peakRssMB)} MB = ${((100 * (r.peakRssMB as number)) / analysisPeak).toFixed(0)}% of the analysis's ${analysisPeak} MB`,
        );
    }
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
}
