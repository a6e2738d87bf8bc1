import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { ValueKind } from '@cellcloud/contracts/files';
import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import { EngineError } from '../errors';
import { dispersionHvgFromSums } from '../stats/dispersion-hvg';
import {
  seuratV3ClippedSums,
  seuratV3Select,
  seuratV3Trend,
  type SeuratV3Trend,
} from '../stats/seurat-v3-hvg';
import type { HvgResult } from '../steps/hvg';
import { endHelperWorker, engineThreads, startHelperWorker } from '../threads';
import {
  awaitJob,
  CONTROL_SLOTS,
  FAILED,
  HvgSummer,
  PUBLISHED,
  SLOT_CELLS,
  SLOT_START,
  STARTED,
  type HvgSlot,
  type HvgSumsWork,
} from './hvg-kernel';
import { forEachChunk } from './select';
import type { NormalizedCells } from './views';

export interface StreamedHvgOptions {
  /** 2 (default: engineThreads()): a worker thread sums genes too; 1: the calling thread alone. */
  threads?: number;
  /** Two threads only from this many stored values (default HVG_PARALLEL_MIN_VALUES). */
  parallelMinValues?: number;
  /** Tests: the calling thread waits (at most 30 s) for the worker to start before it sums any run. */
  awaitWorker?: boolean;
  /** Runs of genes per chunk with two threads (default RUNS_PER_CHUNK; benchmarks). */
  runsPerChunk?: number;
}

/** Stored values from which the sums run on two threads (below, a worker's start costs more than it saves). */
export const HVG_PARALLEL_MIN_VALUES = 4_000_000;

/** Runs of genes per chunk with two threads: the calling thread, busy reading chunks, takes few (the worker most); 4 cost least at 50k cells (docs/benchmarks/store-passes.md). */
const RUNS_PER_CHUNK = 4;

/** Statistics about the last streamedHvg call's sums: runs summed by the worker, of all. */
export const lastStreamedHvg = { inWorker: 0, runs: 0, clippedPass: false };

/**
 * HvgStep (steps/hvg.ts) from per-gene sums gathered chunk by chunk: one pass over the counts and
 * their normalized values (sums and sums of squares: the seurat_v3 trend and the 'seurat'
 * dispersions, whose means every flavour reports), and for seurat_v3 a second pass for the
 * clipped counts, needed only when some gene has a count above its clip (withinClip). The sums
 * are taken cell after cell as in memory, so the result is the same.
 * When the normalized values are computed from these counts (the usual case), the passes run on
 * two threads split by gene (stream/hvg-kernel.ts), still cell after cell for each gene.
 * Pearson residuals are not streamed yet: a clear error.
 */
export function streamedHvg(
  counts: CellChunks,
  normalized: CellChunks & Pick<NormalizedCells, 'fromCounts'>,
  kind: ValueKind,
  params: Pick<AnalysisParams, 'numberOfHighlyVariableGenes' | 'hvgMethod'>,
  options: StreamedHvgOptions = {},
): HvgResult {
  const nGenes = counts.nGenes;
  const nCells = counts.nCells;
  const nTop = Math.min(params.numberOfHighlyVariableGenes, nGenes);
  const method = kind === 'logNormalized' ? 'seurat' : params.hvgMethod;
  if (method === 'pearson')
    throw new EngineError(
      'INVALID_PARAMS',
      'Pearson-residual highly variable genes are not available for out-of-core analyses yet; choose seurat_v3 or seurat.',
      { hvgMethod: 'pearson' },
    );
  const v3 = method === 'seurat_v3';
  const fromCounts = normalized.fromCounts;
  const sums =
    fromCounts && fromCounts.cells === counts
      ? countSums(counts, fromCounts.factor, v3, options)
      : viewSums(counts, normalized, v3);
  const d = dispersionHvgFromSums(sums.nSum, sums.nSq, nCells, nTop);
  if (!v3) return { selected: d.selected, score: d.dispersionsNorm, means: d.means };
  const v = seuratV3Select(sums.trend!, sums.cSum, sums.cSq, nCells, nTop);
  return { selected: v.selected, score: v.variancesNorm, means: d.means };
}

interface HvgSums {
  nSum: Float64Array;
  nSq: Float64Array;
  /** seurat_v3: the clipped sums of the second pass, and the trend of the first. */
  cSum: Float64Array;
  cSq: Float64Array;
  trend?: SeuratV3Trend;
}

/** Normalized values not computed from these counts: the two views, both passes on this thread. */
function viewSums(counts: CellChunks, normalized: CellChunks, v3: boolean): HvgSums {
  const nGenes = counts.nGenes;
  const [nSum, nSq, cSum, cSq] = [0, 1, 2, 3].map(() => new Float64Array(nGenes));
  for (let i = 0; i < normalized.chunkCount; i++) {
    const m = normalized.chunk(i);
    for (let k = 0; k < m.data.length; k++) {
      const v = Math.expm1(m.data[k]);
      const g = m.indices[k];
      nSum[g] += v;
      nSq[g] += v * v;
    }
    if (!v3) continue;
    const raw = counts.chunk(i);
    for (let k = 0; k < raw.data.length; k++) {
      const v = raw.data[k];
      cSum[raw.indices[k]] += v;
      cSq[raw.indices[k]] += v * v;
    }
  }
  if (!v3) return { nSum, nSq, cSum, cSq };
  const trend = seuratV3Trend(cSum, cSq, counts.nCells);
  cSum.fill(0);
  cSq.fill(0);
  forEachChunk(counts, (m) => seuratV3ClippedSums(m, trend.clip, cSum, cSq));
  return { nSum, nSq, cSum, cSq, trend };
}

/**
 * Integer counts (normalized = logNormalizedCells(counts), stream/views.ts): each chunk of counts
 * is decoded once per pass and its normalized values computed in the kernel, the same float32
 * log1p(count × factor) the view gives, expm1 of it memoized per cell and count; the sums are
 * added in the same order as from the two views, so they are the same. With two threads the
 * calling thread reads chunk j + 1 while the worker sums chunk j, and both claim runs of genes.
 */
function countSums(
  counts: CellChunks,
  factor: Float64Array,
  v3: boolean,
  options: StreamedHvgOptions,
): HvgSums {
  const { nGenes, nCells } = counts;
  const nChunks = counts.chunkCount;
  const parallel =
    (options.threads ?? engineThreads()) > 1 &&
    counts.nnz >= (options.parallelMinValues ?? HVG_PARALLEL_MIN_VALUES) &&
    nChunks > 0 &&
    nGenes > 0;
  const buffer = (bytes: number) => (parallel ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const f64 = (n: number) => new Float64Array(buffer(n * 8));
  let maxCells = 0;
  for (let i = 0; i < nChunks; i++)
    maxCells = Math.max(maxCells, counts.chunkStart(i + 1) - counts.chunkStart(i));
  const newSlot = (values: number): HvgSlot => ({
    indptr: f64(maxCells + 1),
    indices: new Uint32Array(buffer(values * 4)),
    data: new Float32Array(buffer(values * 4)),
  });
  const runs = parallel ? Math.max(1, Math.min(options.runsPerChunk ?? RUNS_PER_CHUNK, nGenes)) : 1;
  const nJobs = v3 ? 2 * nChunks : nChunks;
  const work: HvgSumsWork = {
    nGenes,
    nChunks,
    nJobs,
    withCounts: v3 ? 1 : 0,
    factor: parallel ? sharedCopy(factor) : factor,
    runStart: Int32Array.from({ length: runs + 1 }, (_, r) => Math.floor((r * nGenes) / runs)),
    slots: [],
    control: new Int32Array(buffer(CONTROL_SLOTS * 4)),
    claimed: new Int32Array(buffer(nJobs * 4)),
    done: new Int32Array(buffer(nJobs * 4)),
    nSum: f64(nGenes),
    nSq: f64(nGenes),
    cSum: f64(nGenes),
    cSq: f64(nGenes),
    cMax: f64(v3 ? nGenes : 0),
    clip: f64(v3 ? nGenes : 0),
  };
  if (parallel) {
    const mean = Math.ceil(counts.nnz / nChunks);
    work.slots = [newSlot(mean + (mean >> 1)), newSlot(mean + (mean >> 1))];
  }
  const worker = parallel
    ? startHelperWorker(new URL('./hvg-kernel.ts', import.meta.url), { task: 'hvg-sums', work })
    : undefined;
  // job j: chunk j % nChunks into slot j % 2 (a copy into shared memory with a worker)
  const load = (j: number) => {
    const i = j % nChunks;
    const m = counts.chunk(i);
    const s = j % 2;
    const nnz = m.indptr[m.nCells];
    if (!parallel) work.slots[s] = { indptr: m.indptr, indices: m.indices, data: m.data };
    else {
      if (work.slots[s].indices.length < nnz) {
        // posted before job j is published: the worker takes it then (hvg-kernel.ts workerLoop)
        work.slots[s] = newSlot(nnz + (nnz >> 2));
        worker?.postMessage({ slot: s, buffers: work.slots[s] });
      }
      const slot = work.slots[s];
      slot.indptr.set(m.indptr.subarray(0, m.nCells + 1));
      slot.indices.set(m.indices.subarray(0, nnz));
      slot.data.set(m.data.subarray(0, nnz));
    }
    work.control[SLOT_START + s] = counts.chunkStart(i);
    work.control[SLOT_CELLS + s] = m.nCells;
  };
  const publish = (jobs: number) => {
    Atomics.store(work.control, PUBLISHED, jobs);
    Atomics.notify(work.control, PUBLISHED);
  };
  const summer = new HvgSummer(work);
  let trend: SeuratV3Trend | undefined;
  let byCaller = 0;
  let lastJob = nJobs;
  try {
    load(0);
    publish(1);
    if (worker && options.awaitWorker) Atomics.wait(work.control, STARTED, 0, 30_000);
    for (let j = 0; j < lastJob; j++) {
      // with a worker, the next chunk is read while the worker sums this one (two slots)
      if (worker && j + 1 < lastJob && j + 1 !== nChunks) load(j + 1);
      byCaller += summer.claim(j);
      awaitJob(work, j);
      if (j + 1 === nChunks) {
        // a worker failed in the first pass: it is over, and this thread sums that pass again alone
        if (Atomics.compareExchange(work.control, FAILED, 1, 2) === 1) redoPass(work, counts, 0);
        if (v3) {
          trend = seuratV3Trend(work.cSum, work.cSq, nCells);
          if (withinClip(work.cMax, trend.clip)) lastJob = nChunks;
          else clippedPassStart(work, trend);
        }
        if (worker && j + 1 < lastJob) load(j + 1);
      }
      if (j + 1 < lastJob) {
        if (!worker) load(j + 1);
        publish(j + 2);
      }
    }
    if (lastJob < nJobs) {
      // no second pass: the worker finds nothing to claim in its jobs and runs out of them
      work.claimed.fill(runs, lastJob);
      publish(nJobs);
    } else if (Atomics.load(work.control, FAILED) === 1) redoPass(work, counts, nChunks);
  } catch (e) {
    // a chunk failed to read: the worker finds nothing left to claim and runs out of jobs
    work.claimed.fill(runs);
    publish(nJobs);
    throw e;
  } finally {
    endHelperWorker(worker);
  }
  Object.assign(lastStreamedHvg, {
    inWorker: lastJob * runs - byCaller,
    runs: lastJob * runs,
    clippedPass: v3 && lastJob === nJobs,
  });
  const { nSum, nSq, cSum, cSq } = work;
  return { nSum, nSq, cSum, cSq, trend };
}

/**
 * Whether no gene has a count above its clip: then min(count, clip) is every count, and the
 * second pass would add the first pass's count sums again, the same values in the same order —
 * the clipped sums are those sums, bit for bit, without reading the counts again. Clips grow as
 * √cells, so at scale this is the rule (synth atlases: no gene at 50,000 cells). NaN: a pass.
 */
function withinClip(cMax: Float64Array, clip: Float64Array): boolean {
  for (let g = 0; g < clip.length; g++) if (!(cMax[g] <= clip[g])) return false;
  return true;
}

/** Before the second pass: the clip of each gene for the kernel, the clipped sums from zero. */
function clippedPassStart(work: HvgSumsWork, trend: SeuratV3Trend): void {
  work.clip.set(trend.clip);
  work.cSum.fill(0);
  work.cSq.fill(0);
}

/**
 * A pass again on this thread alone after the worker failed in it (its run was left half added):
 * the pass's sums from zero, every chunk read again and summed whole here (its own slots, so the
 * chunk already read for the next job stays in place).
 */
function redoPass(work: HvgSumsWork, counts: CellChunks, firstJob: number): void {
  if (firstJob === 0) {
    work.nSum.fill(0);
    work.nSq.fill(0);
    work.cMax.fill(0);
  }
  work.cSum.fill(0);
  work.cSq.fill(0);
  const alone: HvgSumsWork = {
    ...work,
    runStart: Int32Array.of(0, work.nGenes),
    control: new Int32Array(CONTROL_SLOTS),
    slots: [],
  };
  const summer = new HvgSummer(alone);
  for (let i = 0; i < counts.chunkCount; i++) {
    const j = firstJob + i;
    const m = counts.chunk(i);
    alone.slots[j % 2] = { indptr: m.indptr, indices: m.indices, data: m.data };
    alone.control[SLOT_START + (j % 2)] = counts.chunkStart(i);
    alone.control[SLOT_CELLS + (j % 2)] = m.nCells;
    summer.run(j, 0);
  }
}

function sharedCopy(a: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(a.length * 8));
  out.set(a);
  return out;
}
