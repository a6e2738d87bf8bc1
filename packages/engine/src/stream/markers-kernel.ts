import { isMainThread, workerData } from 'node:worker_threads';
import type { RadixSorter, RankOutputs, rankGene } from '../stats/wilcoxon-kernel';

/**
 * The per-gene work of the streamed markers (stream/markers.ts): gene blocks read by the calling
 * thread into one of two shared slots, their genes claimed in runs from a per-block counter by
 * the calling thread and a worker thread, each gene ranked by the in-memory test's own rankGene
 * (stats/wilcoxon-kernel.ts), so every figure is the in-memory one whichever thread ran it. While
 * the worker ranks block b the calling thread reads block b + 1; nobody spins (Atomics.wait).
 * Node loads this file directly as a worker: it imports nothing of ours but types (the kernel is
 * passed in, or imported by URL in the worker) and uses erasable TypeScript only.
 */
export interface StreamedRankWork extends RankOutputs {
  nGenes: number;
  nCells: number;
  /** Group of each cell, −1 = not tested (stream/markers.ts stores them as narrow as they fit). */
  labels: Int8Array | Int16Array | Int32Array;
  /** First gene of each block, and nGenes last (length blocks + 1). */
  blockStart: Int32Array;
  /** Two slots; block b is read into slot b % 2 (indptr relative to the block, as GeneBlock). */
  slots: { indptr: Float64Array; indices: Uint32Array; data: Float32Array }[];
  /** [blocks published, worker failed, failed block, failed first gene, failed end gene, worker started] */
  control: Int32Array;
  /** Per block: next run of genes to claim, and genes done. */
  claimed: Int32Array;
  done: Int32Array;
  /** Genes per claimed run. */
  runGenes: number;
}

export const PUBLISHED = 0;
export const FAILED = 1;
const FAIL_BLOCK = 2;
const FAIL_FROM = 3;
const FAIL_TO = 4;
export const STARTED = 5;
export const CONTROL_SLOTS = 6;

export interface RankKernel {
  rankGene: typeof rankGene;
  RadixSorter: typeof RadixSorter;
}

/** One thread's scratch: its sorter and (bits, group) pairs buffer. */
export class GeneRanker {
  private pairs = new Uint32Array(0);
  private readonly sorter: RadixSorter;
  private readonly w: StreamedRankWork;
  private readonly kernel: RankKernel;

  constructor(w: StreamedRankWork, kernel: RankKernel) {
    this.w = w;
    this.kernel = kernel;
    this.sorter = new kernel.RadixSorter();
  }

  /** Ranks genes [j0, j1) of block b (indices within the block). */
  rank(b: number, j0: number, j1: number): void {
    const w = this.w;
    const slot = w.slots[b % 2];
    const g0 = w.blockStart[b];
    const { labels } = w;
    const { indptr, indices, data } = slot;
    const dataBits = new Uint32Array(data.buffer, data.byteOffset, data.length);
    for (let j = j0; j < j1; j++) {
      // a block holds at most a few million values: int32 positions
      const s = indptr[j] | 0;
      const e = indptr[j + 1] | 0;
      if (this.pairs.length < 2 * (e - s)) {
        this.pairs = new Uint32Array(0);
        this.pairs = new Uint32Array(2 * (e - s));
      }
      const pairs = this.pairs;
      let n = 0;
      for (let k = s; k < e; k++) {
        const lab = labels[indices[k]];
        if (lab < 0 || data[k] <= 0) continue;
        pairs[2 * n] = dataBits[k];
        pairs[2 * n + 1] = lab;
        n++;
      }
      this.kernel.rankGene(w, g0 + j, pairs, 0, n, this.sorter);
    }
  }

  /**
   * Claims and ranks runs of block b's genes until none is left; returns how many it ranked.
   * `failing` records the run being ranked (the worker reports it when it fails).
   */
  claim(b: number, failing?: (from: number, to: number) => void): number {
    const w = this.w;
    const width = w.blockStart[b + 1] - w.blockStart[b];
    for (let ranked = 0; ;) {
      const j0 = Atomics.add(w.claimed, b, w.runGenes);
      if (j0 >= width) return ranked;
      const j1 = Math.min(width, j0 + w.runGenes);
      failing?.(j0, j1);
      this.rank(b, j0, j1);
      ranked += j1 - j0;
      if (Atomics.add(w.done, b, j1 - j0) + j1 - j0 >= width) Atomics.notify(w.done, b);
    }
  }

  /**
   * The calling thread: sleeps until every gene of block b is done; a run the worker failed on
   * (counted done by it, see workerLoop) is ranked again here from zeroed sums.
   */
  awaitBlock(b: number): void {
    const w = this.w;
    const width = w.blockStart[b + 1] - w.blockStart[b];
    for (let d = Atomics.load(w.done, b); d < width; d = Atomics.load(w.done, b)) Atomics.wait(w.done, b, d);
    if (Atomics.load(w.control, FAILED) === 1 && w.control[FAIL_BLOCK] === b) {
      const j0 = w.control[FAIL_FROM];
      const j1 = w.control[FAIL_TO];
      const g0 = w.blockStart[b];
      for (const out of [w.rankSum, w.nzCount, w.valSum])
        out.fill(0, (g0 + j0) * w.nGroups, (g0 + j1) * w.nGroups);
      this.rank(b, j0, j1);
      Atomics.store(w.control, FAILED, 2);
    }
  }
}

/** The worker: ranks claimed genes of each published block, in order, until the last block. */
export function workerLoop(w: StreamedRankWork, kernel: RankKernel): void {
  const ranker = new GeneRanker(w, kernel);
  const nBlocks = w.blockStart.length - 1;
  let block = -1;
  let from = 0;
  let to = 0;
  Atomics.store(w.control, STARTED, 1);
  Atomics.notify(w.control, STARTED);
  try {
    for (block = 0; block < nBlocks; block++) {
      for (let p = Atomics.load(w.control, PUBLISHED); p <= block; p = Atomics.load(w.control, PUBLISHED))
        Atomics.wait(w.control, PUBLISHED, p);
      ranker.claim(block, (j0, j1) => {
        from = j0;
        to = j1;
      });
      from = to = 0;
    }
  } catch {
    // the run being ranked is left to the calling thread, which ranks the later blocks alone
    if (block < nBlocks && to > from) {
      w.control[FAIL_BLOCK] = block;
      w.control[FAIL_FROM] = from;
      w.control[FAIL_TO] = to;
      Atomics.store(w.control, FAILED, 1);
      // counted done (the calling thread ranks it again once the block's count is complete)
      if (Atomics.add(w.done, block, to - from) + to - from >= w.blockStart[block + 1] - w.blockStart[block])
        Atomics.notify(w.done, block);
    }
  }
}

// Worker entry: stream/markers.ts starts this file with { task: 'wilcoxon-genes', work } (shared arrays).
if (!isMainThread && workerData?.task === 'wilcoxon-genes') {
  const url = new URL('../stats/wilcoxon-kernel.ts', import.meta.url).href;
  const kernel = (await import(url)) as RankKernel;
  workerLoop(workerData.work as StreamedRankWork, kernel);
}
