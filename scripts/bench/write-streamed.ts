/**
 * npx tsx scripts/bench/write-streamed.ts prepare DIR [cells=100000] — synthetic counts
 * (syntheticDataset, samples of 50k cells as bench:engine) into one count store DIR/synth.store;
 * npx tsx scripts/bench/write-streamed.ts write DIR — writeStreamedOutputs (analysis.h5ad,
 * markers.csv, explorer artifacts) of a streamed result over that store, as the out-of-core run
 * gives it (issue 33): 98 % of the cells kept by a mask, log1p(CP10k) computed where read, random
 * embeddings and QC columns. Run `write` in its own process: it prints wall and CPU seconds, peak
 * RSS (the whole process: the store's index, the views' per-cell arrays and the writers' chunks),
 * non-zeros per second and the load average.
 * npx tsx scripts/bench/write-streamed.ts markers DIR — streamedMarkers over the same views (10
 * clusters of known cells): wall and CPU seconds, genes ranked by the worker thread, peak RSS.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileRandomAccess, fileSink } from '@cellcloud/formats/node-sources';
import { CountStoreWriter, openCountStore } from '@cellcloud/formats/store';
import { directorySink } from '@cellcloud/engine/cli/fs-sink';
import {
  keepCells,
  keepCellsGenes,
  logNormalizedCells,
  logNormalizedGenes,
} from '../../packages/engine/src/stream/views';
import { lastStreamedMarkers, streamedMarkers } from '../../packages/engine/src/stream/markers';
import { writeStreamedOutputs } from '../../packages/engine/src/stream/write-streamed';
import type { StreamedAnalysisResult } from '../../packages/engine/src/stream/types';
import { syntheticDataset } from '@cellcloud/engine/synthetic';
import { parseParams } from '@cellcloud/engine/validate';

const [mode, dir, cellsArg] = process.argv.slice(2);
if (!['prepare', 'write', 'markers'].includes(mode ?? '') || !dir) {
  console.error('usage: write-streamed.ts prepare|write|markers DIR [cells]');
  process.exit(2);
}
const storePath = path.join(dir, 'synth.store');
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function prepare(nCells: number): Promise<void> {
  const sink = await fileSink(storePath);
  let writer: CountStoreWriter | undefined;
  for (let left = nCells, s = 0; left > 0; s++) {
    const n = Math.min(50_000, left);
    const syn = syntheticDataset({ nCells: n, nGenes: 20_000, nClusters: 10, seed: 7, cellSeed: 100 + s });
    const { genes, cells, counts } = syn.dataset;
    writer ??= new CountStoreWriter(sink, { geneIds: genes.ids, geneSymbols: genes.symbols });
    await writer.addCells(
      counts,
      cells.barcodes.map((b) => `s${s}_${b}`),
    );
    left -= n;
  }
  const done = await writer!.finish();
  await sink.close();
  console.log(`store: ${done.nCells} cells, ${done.nnz} non-zeros, ${(done.bytes / 1e6).toFixed(1)} MB`);
}

function du(d: string): number {
  let total = 0;
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    total += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return total;
}

async function markers(): Promise<void> {
  const source = fileRandomAccess(storePath);
  const store = openCountStore(source);
  const { counts, countsGenes, kept, totals } = views(store);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const clusterCodes = Int32Array.from(kept, (c) => c % 10);
  const rows = streamedMarkers({
    genes: logNormalizedGenes(countsGenes, totals),
    clusterCodes,
    clusterLabels: Array.from({ length: 10 }, (_, k) => String(k)),
    geneIds: store.geneIds,
    geneSymbols: store.geneSymbols,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  console.log(
    `streamedMarkers: ${kept.length} cells, ${counts.nnz} non-zeros, ${rows.length} rows: ${wall.toFixed(1)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s; worker ranked ${lastStreamedMarkers.inWorker} of ` +
      `${lastStreamedMarkers.genes} genes in ${lastStreamedMarkers.blocks} blocks`,
  );
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${load()}`);
  source.close();
}

/** The kept cells (all but one in 50) as views over the store, and their totals. */
function views(store: ReturnType<typeof openCountStore>) {
  const all = store.cells;
  const kept = Uint32Array.from(
    { length: all.nCells - Math.floor(all.nCells / 50) },
    (_, i) => i + Math.floor(i / 49),
  );
  const counts = keepCells(all, kept);
  const countsGenes = keepCellsGenes(store.genes, kept);
  const totals = new Float64Array(kept.length);
  for (let i = 0; i < counts.chunkCount; i++) {
    const m = counts.chunk(i);
    const c0 = counts.chunkStart(i);
    for (let c = 0; c < m.nCells; c++)
      for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) totals[c0 + c] += m.data[k];
  }
  return { all, kept, counts, countsGenes, totals };
}

async function write(): Promise<void> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const source = fileRandomAccess(storePath);
  const store = openCountStore(source);
  const { all, kept, counts, countsGenes, totals } = views(store);
  const nCells = kept.length;
  const rnd = (dims: number) => ({
    dims,
    values: Float32Array.from({ length: nCells * dims }, () => Math.random() * 20 - 10),
  });
  const num = () => ({
    kind: 'numeric' as const,
    values: Float64Array.from({ length: nCells }, () => Math.random()),
  });
  const clusters = Array.from({ length: nCells }, (_, c) => String(c % 10));
  const result: StreamedAnalysisResult = {
    engineVersion: 'bench',
    params: parseParams({}),
    species: 'human',
    sampleNames: ['synth'],
    counts,
    countsGenes,
    normalized: logNormalizedCells(counts, totals),
    normalizedGenes: logNormalizedGenes(countsGenes, totals),
    geneIds: store.geneIds,
    geneSymbols: store.geneSymbols,
    barcodes: Array.from(kept, (c) => store.barcodes[c]!),
    obs: { cluster: { kind: 'categorical', values: clusters }, total_counts: num(), pct_counts_mito: num() },
    highlyVariable: Uint8Array.from({ length: store.geneIds.length }, (_, g) => (g % 10 === 0 ? 1 : 0)),
    embeddings: { pca: rnd(50), umap: rnd(2), tsne: rnd(2), umap3D: rnd(3) },
    clusterLabels: Array.from({ length: 10 }, (_, k) => String(k)),
    markers: [],
    qc: {
      samples: [],
      mitochondrialThreshold: 20,
      doublets: [],
      ambient: [],
      nPcsUsed: 10,
      pcaVarianceRatio: [],
      batchCorrection: 'none',
    },
    timings: {},
  };
  const prepared = { wall: (performance.now() - t0) / 1000, cpu: process.cpuUsage(c0) };
  const out = mkdtempSync(path.join(tmpdir(), 'cellcloud-bench-stream-write-'));
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  // the largest of each part of the memory, sampled while writing (what the peak RSS is made of)
  const peak = { rss: 0, heapUsed: 0, arrayBuffers: 0, external: 0 };
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    for (const k of Object.keys(peak) as (keyof typeof peak)[]) peak[k] = Math.max(peak[k], m[k]);
  }, 250);
  try {
    await writeStreamedOutputs(result, directorySink(out));
    const wall = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(c1);
    const nnz = counts.nnz;
    console.log(
      `${nCells} of ${all.nCells} cells kept, ${nnz} non-zeros; store ${(store.bytes / 1e6).toFixed(1)} MB`,
    );
    console.log(
      `views (store open, kept nnz, totals): ${prepared.wall.toFixed(1)} s wall, ${((prepared.cpu.user + prepared.cpu.system) / 1e6).toFixed(1)} CPU s`,
    );
    console.log(
      `writeStreamedOutputs: ${wall.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU s, ` +
        `${(nnz / wall / 1e6).toFixed(2)} M non-zeros/s, ${(du(out) / 1e6).toFixed(1)} MB written ` +
        `(${(du(out) / 1e6 / wall).toFixed(1)} MB/s)`,
    );
    const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (sampled: rss ${mb(peak.rss)}, ` +
        `heap ${mb(peak.heapUsed)}, array buffers ${mb(peak.arrayBuffers)}, external ${mb(peak.external)}); load ${load()}`,
    );
  } finally {
    clearInterval(sample);
    source.close();
    rmSync(out, { recursive: true, force: true });
  }
}

if (mode === 'prepare') await prepare(Number(cellsArg ?? 100_000));
else if (mode === 'markers') await markers();
else await write();
