/**
 * `tsx scripts/bench/store-passes.ts <store.ccs …>`: the streamed passes that read a whole count
 * store (docs/benchmarks/store-passes.md) on the given stores merged as samples, as the streamed
 * job builds them (stream/run-streamed.ts: every cell and every detected gene kept): a plain decode
 * of the cell chunks and of the gene blocks, the selection views alone (`select`: stream/select.ts
 * over stream/merge.ts), the HVG pass (seurat_v3; on one thread, then on engineThreads(), with
 * `HVG_RUNS=n` gene runs a chunk instead of stream/hvg.ts's default) and the Wilcoxon markers
 * step on 12 deterministic groups. `--filtered` drops a tenth of the cells and genes as well, so
 * the views take their renumbering paths. Prints wall and CPU seconds (all threads, and the
 * calling thread's own where Node has process.threadCpuUsage), non-zeros per CPU second, peak
 * RSS, the load average, and a checksum of each result so runs before and after a change can be
 * compared for identical output.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import { ANALYSIS_DEFAULTS } from '@cellcloud/contracts/analysis-params';
import { lastStreamedHvg, streamedHvg } from '../../packages/engine/src/stream/hvg';
import { streamedMarkers, streamedMarkersWorkersExited } from '../../packages/engine/src/stream/markers';
import { mergeStreamed } from '../../packages/engine/src/stream/merge';
import { countStored, selectCells, selectGenes, selection } from '../../packages/engine/src/stream/select';
import { storeSample } from '../../packages/engine/src/stream/types';
import { geneRanges, logNormalizedCells, logNormalizedGenes } from '../../packages/engine/src/stream/views';
import { engineThreads } from '../../packages/engine/src/threads';
import { fileRandomAccess } from '../../packages/formats/src/node-sources';
import { openCountStore } from '../../packages/formats/src/store';

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
if (files.length === 0)
  throw new Error(
    'usage: store-passes.ts <store.ccs …> [--only=decode,genes,select,normgenes,hvg,markers] [--filtered]',
  );

async function timed<T>(label: string, nnz: number, fn: () => Promise<T> | T): Promise<T> {
  const c0 = process.cpuUsage();
  const m0 = threadCpu();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  const wall = (performance.now() - t0) / 1000;
  const cpu = (c.user + c.system) / 1e6;
  // the calling thread's own CPU: the wall on idle cores when it is the busiest thread
  const main = threadCpu() - m0;
  console.log(
    `  ${label.padEnd(26)} ${wall.toFixed(2).padStart(7)} s wall ${cpu.toFixed(2).padStart(7)} s CPU ` +
      `(${Number.isNaN(main) ? '?' : main.toFixed(2)} s main thread) ` +
      `${(nnz / cpu / 1e6).toFixed(1).padStart(6)} M non-zeros per CPU s  load ${loadavg()[0].toFixed(2)}`,
  );
  return value;
}

/** CPU seconds of the calling thread (process.threadCpuUsage, Node ≥ 23.9; NaN before). */
function threadCpu(): number {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage ? (usage.user + usage.system) / 1e6 : NaN;
}

const digest = (...arrays: ArrayBufferView[]) => {
  const h = createHash('sha256');
  for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest('hex').slice(0, 16);
};

const sources = files.map((f) => fileRandomAccess(f));
const samples = sources.map((s, i) => storeSample(path.basename(files[i]), openCountStore(s)));
const merged = mergeStreamed(samples);
const nnz = merged.cells.nnz;
console.log(
  `${files.length} stores: ${merged.cells.nCells} cells × ${merged.cells.nGenes} genes, ${nnz} non-zeros`,
);
const want = (step: string) => !only || only.includes(step);

if (want('decode'))
  await timed('decode cell chunks', nnz, () => {
    let n = 0;
    for (let i = 0; i < merged.cells.chunkCount; i++) n += merged.cells.chunk(i).indices.length;
    return n;
  });

// every cell, every gene with a stored value (the filters' shape without their thresholds)
// (`--filtered`: a tenth of the cells and of those genes dropped too, as QC filters do)
const filtered = process.argv.includes('--filtered');
const all = Uint32Array.from({ length: merged.cells.nCells }, (_, c) => c).filter(
  (c) => !filtered || c % 10 !== 3,
);
const anyStored = new Uint8Array(merged.cells.nGenes);
for (let i = 0; i < merged.cells.chunkCount; i++)
  for (const g of merged.cells.chunk(i).indices) anyStored[g] = !filtered || g % 10 !== 7 ? 1 : 0;
const sel = selection(all, anyStored);
const counts = selectCells(merged.cells, sel);
const stored = countStored(counts);
counts.nnz = stored.nnz;
const normalized = logNormalizedCells(counts, stored.totals, stored.kind);
const normalizedGenes = logNormalizedGenes(
  selectGenes(merged.genes, sel, stored.geneNnz),
  stored.totals,
  stored.kind,
);

if (want('genes'))
  await timed('decode gene blocks (4M)', nnz, () => {
    let n = 0;
    for (const [g0, g1] of geneRanges(stored.geneNnz, 4 << 20))
      n += merged.genes.genes(sel.genes[g0], sel.genes[g1 - 1] + 1).indices.length;
    return n;
  });

// the selection views alone (stream/select.ts, over stream/merge.ts's blocks): the copy the
// cell-major and gene-major passes pay on top of the store decode
if (want('select')) {
  const selectedGenes = selectGenes(merged.genes, sel, stored.geneNnz);
  await timed('selected cell chunks', nnz, () => {
    let n = 0;
    for (let i = 0; i < counts.chunkCount; i++) n += counts.chunk(i).indices.length;
    return n;
  });
  await timed('selected gene blocks (4M)', nnz, () => {
    let n = 0;
    for (const [g0, g1] of geneRanges(stored.geneNnz, 4 << 20))
      n += selectedGenes.genes(g0, g1).indices.length;
    return n;
  });
  // checksums outside the timings: hashing costs more than the copy
  const cellSums = createHash('sha256');
  for (let i = 0; i < counts.chunkCount; i++) {
    const m = counts.chunk(i);
    cellSums.update(digest(m.indptr, m.indices, m.data));
  }
  const geneSums = createHash('sha256');
  for (const [g0, g1] of geneRanges(stored.geneNnz, 4 << 20)) {
    const b = selectedGenes.genes(g0, g1);
    geneSums.update(digest(b.indptr, b.indices, b.data));
  }
  console.log(
    `    select checksums cells ${cellSums.digest('hex').slice(0, 16)} genes ${geneSums.digest('hex').slice(0, 16)}`,
  );
}

if (want('normgenes'))
  await timed('normalized gene blocks', nnz, () => {
    let n = 0;
    for (const [g0, g1] of geneRanges(stored.geneNnz, 4 << 20))
      n += normalizedGenes.genes(g0, g1).data.length;
    return n;
  });

if (want('hvg')) {
  // one thread (the calling thread alone), then engineThreads() (stream/hvg-kernel.ts: the gene
  // runs of each chunk shared with a worker while the next chunk is read)
  for (const threads of [1, engineThreads()]) {
    const hvg = await timed(`hvg (seurat_v3, ${threads} thr)`, nnz, () =>
      streamedHvg(counts, normalized, stored.kind, ANALYSIS_DEFAULTS, {
        threads,
        runsPerChunk: Number(process.env.HVG_RUNS) || undefined,
      }),
    );
    console.log(
      `    hvg checksum ${digest(hvg.selected as unknown as Uint32Array, Float64Array.from(hvg.score), Float64Array.from(hvg.means))}` +
        ` (runs in the worker ${lastStreamedHvg.inWorker} of ${lastStreamedHvg.runs})`,
    );
    if (threads === 1 && engineThreads() === 1) break;
  }
}

if (want('markers')) {
  const nGroups = 12;
  const codes = new Int32Array(all.length);
  for (let c = 0; c < codes.length; c++)
    codes[c] = ((c * 2654435761) >>> 0) % 97 < 5 ? -1 : (c >> 9) % nGroups;
  const geneIds = Array.from(sel.genes, (g) => merged.geneIds[g]);
  const rows = await timed('markers (wilcoxon)', nnz, async () => {
    const r = streamedMarkers({
      genes: normalizedGenes,
      clusterCodes: codes,
      clusterLabels: Array.from({ length: nGroups }, (_, k) => `c${k}`),
      geneIds,
      geneSymbols: geneIds,
    });
    await streamedMarkersWorkersExited();
    return r;
  });
  console.log(
    `    markers checksum ${createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 16)} (${rows.length} rows)`,
  );
}
console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
for (const s of sources) s.close();
