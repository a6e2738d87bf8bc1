import {
  isMainThread,
  parentPort,
  receiveMessageOnPort,
  workerData,
  type MessagePort,
} from 'node:worker_threads';

/**
 * The per-gene sums of the streamed HVG pass (stream/hvg.ts) on two threads, split by GENE: each
 * cell chunk is decoded by the calling thread into one of two shared slots, and its genes are
 * claimed in runs (a range of genes) from a per-job counter by the calling thread and a worker
 * thread. A run adds the chunk's values of its genes cell after cell, so every gene's sums are
 * added in the same cell order, by the same expressions, as on one thread: the same bits whoever
 * ran which run. While the worker sums job j the calling thread decodes job j + 1; nobody spins
 * (Atomics.wait). Jobs are the chunks of the first pass (normalized and count sums), then, for
 * seurat_v3 when some gene has a count above its clip, the chunks again for the clipped sums. Node loads this file directly as a worker: it
 * imports nothing of ours and uses erasable TypeScript only.
 */
export interface HvgSumsWork {
  nGenes: number;
  /** Chunks per pass; jobs [0, nChunks) are the first pass, [nChunks, 2 nChunks) the clipped one. */
  nChunks: number;
  nJobs: number;
  /** 1: the first pass also sums the counts (seurat_v3). */
  withCounts: number;
  /** Size factor of each cell (normalized = float32 log1p(count × factor)). */
  factor: Float64Array;
  /** Gene bounds of the runs (length runs + 1). */
  runStart: Int32Array;
  /** Two slots; job j is read into slot j % 2 (indptr from 0, as the chunk). */
  slots: HvgSlot[];
  /** [jobs published, worker failed, worker started, first cell of slot 0, of slot 1, cells in slot 0, in slot 1] */
  control: Int32Array;
  /** Per job: next run to claim, and runs done. */
  claimed: Int32Array;
  done: Int32Array;
  nSum: Float64Array;
  nSq: Float64Array;
  cSum: Float64Array;
  cSq: Float64Array;
  /** The first pass's largest count of each gene (seurat_v3: genes never above their clip need no second pass). */
  cMax: Float64Array;
  /** The second pass's clip of each gene (written before its first job is published). */
  clip: Float64Array;
}

export interface HvgSlot {
  indptr: Float64Array;
  indices: Uint32Array;
  data: Float32Array;
}

export const PUBLISHED = 0;
export const FAILED = 1;
export const STARTED = 2;
export const SLOT_START = 3;
export const SLOT_CELLS = 5;
export const CONTROL_SLOTS = 7;

/** Counts below this are normalized once per cell and run (a tag per visit invalidates them). */
const MEMO = 64;

/** One thread's memo of expm1(float32 log1p(count × factor)) for the cell it is on. */
export class HvgSummer {
  private readonly stamp = new Int32Array(MEMO);
  private readonly value = new Float64Array(MEMO);
  private tag = 0;
  private readonly w: HvgSumsWork;

  constructor(w: HvgSumsWork) {
    this.w = w;
  }

  /** Adds genes [runStart[r], runStart[r + 1]) of job j's chunk to the sums. */
  run(j: number, r: number): void {
    const w = this.w;
    const s = j % 2;
    const { indptr, indices, data } = w.slots[s];
    const nCells = w.control[SLOT_CELLS + s];
    const g0 = w.runStart[r];
    const g1 = w.runStart[r + 1];
    if (j < w.nChunks) this.sums(indptr, indices, data, nCells, w.control[SLOT_START + s], g0, g1);
    else clippedSums(w, indptr, indices, data, nCells, g0, g1);
  }

  private sums(
    indptr: Float64Array,
    indices: Uint32Array,
    data: Float32Array,
    nCells: number,
    c0: number,
    g0: number,
    g1: number,
  ): void {
    const { factor, nSum, nSq, cSum, cSq, cMax } = this.w;
    const withCounts = this.w.withCounts === 1;
    const { stamp, value } = this;
    for (let c = 0; c < nCells; c++) {
      const f = factor[c0 + c];
      if (this.tag === 0x7fffffff) {
        stamp.fill(0);
        this.tag = 0;
      }
      const tag = ++this.tag;
      const e = indptr[c + 1] | 0;
      for (let k = firstAtLeast(indices, indptr[c] | 0, e, g0); k < e; k++) {
        const g = indices[k];
        if (g >= g1) break;
        const x = data[k];
        const n = x | 0;
        let v: number;
        if (n === x && n >= 0 && n < MEMO) {
          if (stamp[n] !== tag) {
            stamp[n] = tag;
            value[n] = Math.expm1(Math.fround(Math.log1p(x * f)));
          }
          v = value[n];
        } else v = Math.expm1(Math.fround(Math.log1p(x * f)));
        nSum[g] += v;
        nSq[g] += v * v;
        if (withCounts) {
          cSum[g] += x;
          cSq[g] += x * x;
          if (x > cMax[g]) cMax[g] = x;
        }
      }
    }
  }

  /** Claims and runs job j's runs until none is left; returns how many it ran. */
  claim(j: number, running?: (r: number) => void): number {
    const w = this.w;
    const runs = w.runStart.length - 1;
    let ran = 0;
    for (let r = Atomics.add(w.claimed, j, 1); r < runs; r = Atomics.add(w.claimed, j, 1)) {
      running?.(r);
      this.run(j, r);
      ran++;
      if (Atomics.add(w.done, j, 1) + 1 >= runs) Atomics.notify(w.done, j);
    }
    return ran;
  }
}

/** The second pass (seuratV3ClippedSums, stats/seurat-v3-hvg.ts) on genes [g0, g1). */
function clippedSums(
  w: HvgSumsWork,
  indptr: Float64Array,
  indices: Uint32Array,
  data: Float32Array,
  nCells: number,
  g0: number,
  g1: number,
): void {
  const { clip, cSum, cSq } = w;
  for (let c = 0; c < nCells; c++) {
    const e = indptr[c + 1] | 0;
    for (let k = firstAtLeast(indices, indptr[c] | 0, e, g0); k < e; k++) {
      const g = indices[k];
      if (g >= g1) break;
      const v = Math.min(data[k], clip[g]);
      cSum[g] += v;
      cSq[g] += v * v;
    }
  }
}

/** First position in [s, e) whose gene is ≥ g (a cell's genes are strictly increasing). */
function firstAtLeast(indices: Uint32Array, s: number, e: number, g: number): number {
  if (g === 0) return s;
  let lo = s;
  let hi = e;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (indices[mid] < g) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sleeps until every run of job j is done. */
export function awaitJob(w: HvgSumsWork, j: number): void {
  const runs = w.runStart.length - 1;
  for (let d = Atomics.load(w.done, j); d < runs; d = Atomics.load(w.done, j)) Atomics.wait(w.done, j, d);
}

/**
 * The worker: runs claimed runs of each published job, in order, until the last job. Slots that
 * the calling thread had to enlarge arrive on `port` (posted before the job using them is
 * published). On an error it records the failure, counts its run done and stops: the calling
 * thread then sums that pass again alone.
 */
export function workerLoop(w: HvgSumsWork, port?: MessagePort | null): void {
  const summer = new HvgSummer(w);
  Atomics.store(w.control, STARTED, 1);
  Atomics.notify(w.control, STARTED);
  let job = 0;
  let running = -1;
  try {
    for (; job < w.nJobs; job++) {
      for (let p = Atomics.load(w.control, PUBLISHED); p <= job; p = Atomics.load(w.control, PUBLISHED))
        Atomics.wait(w.control, PUBLISHED, p);
      if (Atomics.load(w.control, FAILED) !== 0) return;
      if (port)
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          const { slot, buffers } = m.message as { slot: number; buffers: HvgSlot };
          w.slots[slot] = buffers;
        }
      summer.claim(job, (r) => (running = r));
      running = -1;
    }
  } catch {
    Atomics.store(w.control, FAILED, 1);
    if (job < w.nJobs && running >= 0 && Atomics.add(w.done, job, 1) + 1 >= w.runStart.length - 1)
      Atomics.notify(w.done, job);
  }
}

// Worker entry: stream/hvg.ts starts this file with { task: 'hvg-sums', work } (shared arrays).
if (!isMainThread && workerData?.task === 'hvg-sums') workerLoop(workerData.work as HvgSumsWork, parentPort);
