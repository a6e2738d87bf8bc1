/**
 * `npm run bench:engine -- synth1m synth2m [store100k …]`: the out-of-core path (issue 33) on
 * synthetic atlases written to disk as count stores, samples of 50k cells (scripts/synth/atlas.ts,
 * generated once and cached under the temporary folder; generation is reported apart, not
 * counted). Runs in its own child process like the in-memory datasets: every default,
 * `runAnalysisStreamed` over the stores opened by positional reads, then (BENCH_WRITE=1) the
 * outputs written streamed (`writeStreamedOutputs`: analysis.h5ad, markers.csv, explorer
 * artifacts) into a temporary folder removed after. Prints per step wall / CPU seconds / RSS, the
 * store's bytes per non-zero, the whole job, peak RSS (maxRSS of the process) and ARI against the
 * known clusters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { runAnalysisStreamed } from '@cellcloud/engine/stream/run-streamed';
import { writeStreamedOutputs } from '@cellcloud/engine/stream/write-streamed';
import { storeSample, type StreamedSample } from '@cellcloud/engine/stream/types';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import { openCountStore } from '@cellcloud/formats/store';
import { atlasTruth, ensureAtlas } from '../synth/atlas';
import { printStepTable, StepTimer, stepsJson, type StepTime } from './step-timer';

/** Store-backed datasets and their sizes in cells. */
export const STORE_DATASETS: Record<string, number> = {
  store20k: 20_000,
  store100k: 100_000,
  store200k: 200_000,
  store500k: 500_000,
  synth1m: 1_000_000,
  synth2m: 2_000_000,
};

const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

/** The child process of one store-backed dataset (bench engine.ts `--child <name>`). */
export async function storeChild(
  name: string,
  peakRss: () => number,
  resetPeakRss: () => void,
): Promise<void> {
  const cells = STORE_DATASETS[name];
  const g0 = performance.now();
  const { dir, manifest } = await ensureAtlas(cells);
  const generated = (performance.now() - g0) / 1000;
  console.log(
    `${name}: ${manifest.samples.length} samples (count stores), ${manifest.cells} cells × ${manifest.genes} genes, ` +
      `${manifest.nnz} non-zeros, ${(manifest.bytes / 2 ** 20).toFixed(0)} MiB on disk = ` +
      `${(manifest.bytes / manifest.nnz).toFixed(2)} B per non-zero (uncompressed 8 B)`,
  );
  console.log(
    `  generate        ${(generated > 1 ? generated : manifest.generateSeconds).toFixed(1)} s${generated > 1 ? '' : ' (cached)'} (not counted)`,
  );
  resetPeakRss();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const files = manifest.samples.map((s) => fileRandomAccess(path.join(dir, s.file)));
  const samples: StreamedSample[] = manifest.samples.map((s, i) => {
    return storeSample(s.name, openCountStore(files[i]));
  });
  const openSeconds = (performance.now() - t0) / 1000;
  const openCpu = cpuSince(cpu0);
  const params = process.env.BENCH_PARAMS ? JSON.parse(process.env.BENCH_PARAMS) : {};
  const timer = new StepTimer(performance.now(), Boolean(process.env.BENCH_VERBOSE));
  try {
    const result = await runAnalysisStreamed(samples, params, timer.onProgress);
    timer.close();
    const pipelineSeconds = (performance.now() - t0) / 1000;
    const rows: StepTime[] = [
      { step: 'open stores', wall: openSeconds, cpu: openCpu, rssMB: 0 },
      ...timer.steps,
    ];
    const pipelinePeak = peakRss();
    let writeSeconds: number | undefined;
    if (process.env.BENCH_WRITE) {
      const out = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-store-'));
      const w0 = performance.now();
      const cw = process.cpuUsage();
      try {
        await writeStreamedOutputs(result, directorySink(out));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
      writeSeconds = (performance.now() - w0) / 1000;
      rows.push({ step: 'write outputs', wall: writeSeconds, cpu: cpuSince(cw), rssMB: 0 });
    }
    printStepTable(rows);
    // ARI: the kept cells' clusters against the truth of the same cells (barcodes sample_cellN)
    const truth = atlasTruth(dir);
    const offset = new Map<string, number>();
    let start = 0;
    for (const s of manifest.samples) {
      offset.set(s.name, start);
      start += s.cells;
    }
    const clusters = result.obs.cluster.kind === 'categorical' ? result.obs.cluster.values : [];
    const known: string[] = [];
    const found: string[] = [];
    // one sample: barcodes as written (cellN); several: <sample>_cellN (mergeDatasets' rule)
    const single = manifest.samples.length === 1 ? manifest.samples[0].name : undefined;
    result.barcodes.forEach((b, i) => {
      const m = single ? /^()cell(\d+)$/.exec(b) : /^(.*)_cell(\d+)$/.exec(b);
      const base = m && offset.get(single ?? m[1]);
      if (m && base !== undefined) {
        known.push(String(truth[base + Number(m[2]) - 1]));
        found.push(clusters[i]);
      }
    });
    const ari = adjustedRandIndex(known, found);
    const whole = pipelineSeconds + (writeSeconds ?? 0);
    const cpu = cpuSince(cpu0);
    const peak = peakRss();
    const load = loadavg().map((x) => Number(x.toFixed(2)));
    console.log(
      `  cells after QC ${result.counts.nCells}, clusters ${result.clusterLabels.length}, PCs ${result.qc.nPcsUsed}`,
    );
    console.log(
      `  whole job${writeSeconds === undefined ? ' (no writing)' : ' with writing'} ${whole.toFixed(1)} s (CPU ${cpu.toFixed(1)} s), ` +
        `peak RSS ${peak} MB (pipeline ${pipelinePeak} MB), ARI ${ari.toFixed(3)}, load ${load.join(' ')}`,
    );
    console.log(
      JSON.stringify({
        dataset: name,
        path: 'store',
        cells: manifest.cells,
        nnz: manifest.nnz,
        storeBytesPerNnz: Number((manifest.bytes / manifest.nnz).toFixed(3)),
        seconds: Number(whole.toFixed(2)),
        cpuSeconds: Number(cpu.toFixed(2)),
        peakRssMB: peak,
        pipelinePeakRssMB: pipelinePeak,
        ari: Number(ari.toFixed(4)),
        cellsAfterQc: result.counts.nCells,
        clusters: result.clusterLabels.length,
        params,
        steps: stepsJson(rows),
        loadavg: load,
      }),
    );
  } finally {
    for (const f of files) f.close();
  }
}
