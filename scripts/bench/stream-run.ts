/**
 * `npx tsx scripts/bench/stream-run.ts <pbmc3k|synth100k> <memory|streamed> [markers]` — one run of
 * the default pipeline in this process, in memory (runAnalysis) or streamed (runAnalysisStreamed
 * over count store files written first to a temporary folder, removed after): wall and CPU seconds
 * (all threads), peak RSS (VmHWM reset after the data are read or generated and written), the load
 * average, and ARI against the known clusters (synthetic data: the engine bench's synth100k, two
 * samples of 50k cells, profile seed 7, cell seeds 100 / 101). `markers`: the streamed run stops
 * after the markers (no layouts), for comparing with `BENCH_STOP=markers npm run bench:engine`.
 * Prints one JSON line. Run each path in its own process so that the peaks are apart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { readDataset } from '@cellcloud/formats';
import { cellChunksOf } from '@cellcloud/formats/cell-chunks';
import type { Dataset } from '@cellcloud/formats/matrix';
import { fileRandomAccess, fileSink, pathBundle } from '@cellcloud/formats/node-sources';
import { CountStoreWriter, openCountStore } from '@cellcloud/formats/store';
import { collectGarbage } from '../../packages/engine/src/collect-garbage';
import { runAnalysis } from '@cellcloud/engine/run-analysis';
import { adjustedRandIndex } from '@cellcloud/engine/stats/ari';
import { runAnalysisStreamed } from '../../packages/engine/src/stream/run-streamed';
import type { StreamedSample } from '../../packages/engine/src/stream/types';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';

const [name = 'pbmc3k', mode = 'streamed', stop] = process.argv.slice(2);

async function load(): Promise<{
  samples: { name: string; dataset: Dataset }[];
  truth?: Map<string, string>;
}> {
  if (name === 'pbmc3k') {
    const dataset = await readDataset(await pathBundle(path.join(SHARED_DATA_DIR, 'pbmc3k/10x')));
    return { samples: [{ name: 'pbmc3k', dataset }] };
  }
  const truth = new Map<string, string>();
  const samples = [0, 1].map((s) => {
    const syn = syntheticDataset({
      nCells: 50_000,
      nGenes: 20_000,
      nClusters: 10,
      seed: 7,
      cellSeed: 100 + s,
    });
    const sample = `${name}_${s + 1}`;
    syn.dataset.cells.barcodes.forEach((b, i) => truth.set(`${sample}_${b}`, String(syn.truth[i])));
    return { name: sample, dataset: syn.dataset };
  });
  return { samples, truth };
}

/** Writes each sample to a count store file and lets the matrices go. */
async function toStores(samples: { name: string; dataset: Dataset }[], dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const s of samples) {
    const file = path.join(dir, `${s.name}.store`);
    const sink = await fileSink(file);
    const { counts, genes, cells } = s.dataset;
    const w = new CountStoreWriter(sink, {
      geneIds: genes.ids,
      geneSymbols: genes.symbols,
      sampleName: s.name,
    });
    const chunks = cellChunksOf(counts, 2048);
    for (let i = 0; i < chunks.chunkCount; i++)
      await w.addCells(chunks.chunk(i), cells.barcodes.slice(chunks.chunkStart(i), chunks.chunkStart(i + 1)));
    await w.finish();
    await sink.close();
    files.push(file);
  }
  return files;
}

function peakRssMB(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(hwm ? hwm[1] : process.resourceUsage().maxRSS) / 1024);
}

const { samples, truth } = await load();
const dir = mkdtempSync(path.join(tmpdir(), 'stream-run-'));
try {
  let streamed: StreamedSample[] | undefined;
  if (mode === 'streamed') {
    const files = await toStores(samples, dir);
    streamed = files.map((file, i) => {
      const store = openCountStore(fileRandomAccess(file));
      return { ...store, name: samples[i].name };
    });
    samples.length = 0;
  }
  collectGarbage();
  writeFileSync('/proc/self/clear_refs', '5');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = streamed
    ? await runAnalysisStreamed(streamed, {}, undefined, stop === 'markers' ? { layouts: 'none' } : {})
    : await runAnalysis(samples, {}, undefined, { releaseSamples: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const clusters = result.obs.cluster.values as string[];
  const ari = truth
    ? adjustedRandIndex(
        result.barcodes.map((b) => truth.get(b) ?? '?'),
        clusters,
      )
    : undefined;
  console.log(
    JSON.stringify({
      dataset: name,
      mode,
      stop: stop ?? 'end',
      cells: result.barcodes.length,
      clusters: result.clusterLabels.length,
      seconds: Number(seconds.toFixed(1)),
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
      peakRssMB: peakRssMB(),
      ari: ari === undefined ? undefined : Number(ari.toFixed(4)),
      timings: Object.fromEntries(Object.entries(result.timings).map(([k, v]) => [k, Number(v!.toFixed(1))])),
      loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
