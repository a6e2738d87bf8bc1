import { isMainThread, workerData } from 'node:worker_threads';

/**
 * The per-gene work of the Wilcoxon markers test (stats/wilcoxon.ts): gene-major blocks of the
 * cell-major log-normalized matrix, a radix sort of each gene's stored values, and the per-group
 * rank sums, non-zero counts, value sums and tie term — on its own so that a worker thread can run
 * part of the blocks (both cores; issue 14). Blocks are claimed in increasing order from a shared
 * counter by whichever thread is free; each gene's figures are computed the same way whichever
 * thread ran its block, so the result does not depend on the split. This file imports nothing of
 * ours (Node loads it directly as a worker, type annotations stripped) and uses erasable
 * TypeScript only.
 */
export interface WilcoxonWork {
  nGenes: number;
  nCells: number;
  nGroups: number;
  /** Labelled cells (labels ≥ 0). */
  n: number;
  indptr: Float64Array;
  indices: Uint32Array;
  data: Float32Array;
  /** Group of each cell, −1 = not tested. */
  labels: Int32Array;
  /** First gene of each block, and nGenes last (length blocks + 1). */
  blockStart: Int32Array;
  /** [next block, counting claimed, upper cells counted, geneCount complete, worker claimed a block] */
  control: Int32Array;
  /** Per gene: stored values > 0 of labelled cells (countValues), and those of the upper cells. */
  geneCount: Float64Array;
  upperCount: Float64Array;
  /** Per block: 0 not finished, 1 finished by the calling thread, 2 by the worker, 3 worker failed. */
  state: Int32Array;
  /** Outputs, gene-major (g · nGroups + k): sum of ranks, count and sum of the values > 0. */
  rankSum: Float64Array;
  nzCount: Float64Array;
  valSum: Float64Array;
  /** Per gene: Σ (t³ − t) over tie groups, the zeros included. */
  tie: Float64Array;
}

const NEXT = 0;
const COUNT_CLAIM = 1;
const UPPER_COUNTED = 2;
const COUNTED = 3;
export const WORKER_STARTED = 4;
export const CONTROL_SLOTS = 5;
export const BLOCK_BY_CALLER = 1;
export const BLOCK_BY_WORKER = 2;
export const BLOCK_FAILED = 3;

/**
 * Counts each gene's stored values > 0 over the labelled cells (sequential reads of the matrix: the
 * blocks then need no counting pass of their own). The calling thread counts the cells before the
 * half-values cell; the upper cells are counted by whichever thread claims them first (the worker
 * as it starts, else the calling thread), into `upperCount`. The counts are integers: the same
 * whichever thread counted.
 */
export function countValues(w: WilcoxonWork, caller: boolean): void {
  const ctl = w.control;
  const split = halfValuesCell(w);
  if (!caller) {
    if (Atomics.compareExchange(ctl, COUNT_CLAIM, 0, 1) !== 0) return;
    countCells(w, split, w.nCells, w.upperCount);
    Atomics.store(ctl, UPPER_COUNTED, 1);
    Atomics.notify(ctl, UPPER_COUNTED);
    return;
  }
  countCells(w, 0, split, w.geneCount);
  if (Atomics.compareExchange(ctl, COUNT_CLAIM, 0, 1) === 0) countCells(w, split, w.nCells, w.upperCount);
  else while (Atomics.load(ctl, UPPER_COUNTED) === 0) Atomics.wait(ctl, UPPER_COUNTED, 0);
  for (let g = 0; g < w.nGenes; g++) w.geneCount[g] += w.upperCount[g];
  Atomics.store(ctl, COUNTED, 1);
  Atomics.notify(ctl, COUNTED);
}

/** The first cell at or after which half of the stored values lie. */
function halfValuesCell(w: WilcoxonWork): number {
  const half = w.indptr[w.nCells] / 2;
  let lo = 0;
  let hi = w.nCells;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (w.indptr[mid] < half) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countCells(w: WilcoxonWork, from: number, to: number, out: Float64Array): void {
  const { indptr, indices, data, labels } = w;
  for (let c = from; c < to; c++) {
    if (labels[c] < 0) continue;
    const e = indptr[c + 1];
    for (let k = indptr[c]; k < e; k++) if (data[k] > 0) out[indices[k]]++;
  }
}

/** Claims and runs blocks until none is left, marking each with `mark`; returns how many it ran. */
export function runBlocks(
  w: WilcoxonWork,
  mark: number,
  after?: (block: number) => void,
  claimed?: () => void,
): number {
  const nBlocks = w.blockStart.length - 1;
  const runner = new BlockRunner(w);
  let done = 0;
  for (;;) {
    const b = Atomics.add(w.control, NEXT, 1);
    if (b >= nBlocks) return done;
    claimed?.();
    runner.run(b);
    Atomics.store(w.state, b, mark);
    Atomics.notify(w.state, b);
    done++;
    after?.(b);
  }
}

/** Runs block b again from zeroed outputs (a block whose worker failed, on the calling thread). */
export function rerunBlock(w: WilcoxonWork, b: number): void {
  const g0 = w.blockStart[b];
  const g1 = w.blockStart[b + 1];
  for (const out of [w.rankSum, w.nzCount, w.valSum]) out.fill(0, g0 * w.nGroups, g1 * w.nGroups);
  new BlockRunner(w).run(b);
}

/** One thread's state: its per-cell cursor over the matrix, block buffers and sort scratch. */
class BlockRunner {
  /** First stored value of each cell at or after the current block's first gene. */
  private readonly cursor: Float64Array;
  private last = -2;
  private readonly sorter = new RadixSorter();
  /**
   * The transposed block's (bits, group) pairs, reused from block to block (grown when a block
   * holds more values): a new array per block left the previous ones to the garbage collector,
   * which in this synchronous loop let several blocks pile up (~1 GB at 100k cells, issue 14).
   */
  private pairs = new Uint32Array(0);

  private readonly w: WilcoxonWork;

  constructor(w: WilcoxonWork) {
    this.w = w;
    this.cursor = w.indptr.slice(0, w.nCells);
  }

  run(b: number): void {
    const w = this.w;
    const g0 = w.blockStart[b];
    const g1 = w.blockStart[b + 1];
    if (b !== this.last + 1) this.seek(g0);
    this.last = b;
    const block = this.transpose(g0, g1);
    for (let g = g0; g < g1; g++)
      rankGene(w, g, block.pairs, block.ptr[g - g0], block.ptr[g - g0 + 1], this.sorter);
  }

  /** Moves every labelled cell's cursor to its first value of a gene ≥ g0 (binary search). */
  private seek(g0: number): void {
    const { indptr, indices, labels, nCells } = this.w;
    for (let c = 0; c < nCells; c++) {
      if (labels[c] < 0) continue;
      let lo = this.cursor[c];
      let hi = indptr[c + 1];
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (indices[mid] < g0) lo = mid + 1;
        else hi = mid;
      }
      this.cursor[c] = lo;
    }
  }

  /**
   * Gene-major copy of genes [g0, g1) for labelled cells with value > 0: the float32 bit patterns
   * (which order as the values, all positive) and the group of each.
   */
  private transpose(g0: number, g1: number) {
    const { indptr, indices, data, labels, nCells, geneCount } = this.w;
    const cursor = this.cursor;
    const width = g1 - g0;
    const ptr = new Float64Array(width + 1);
    for (let i = 0; i < width; i++) ptr[i + 1] = ptr[i] + geneCount[g0 + i];
    // (bits, group) pairs side by side: one write stream per gene, not two
    if (this.pairs.length < 2 * ptr[width]) {
      this.pairs = new Uint32Array(0); // the smaller one is let go before the larger is allocated
      this.pairs = new Uint32Array(2 * ptr[width]);
    }
    const pairs = this.pairs;
    const dataBits = new Uint32Array(data.buffer, data.byteOffset, data.length);
    const pos = Int32Array.from(ptr.subarray(0, width));
    for (let c = 0; c < nCells; c++) {
      const lab = labels[c];
      if (lab < 0) continue;
      const last = indptr[c + 1];
      let k = cursor[c];
      for (; k < last; k++) {
        const g = indices[k];
        if (g >= g1) break;
        if (data[k] <= 0) continue;
        const p = pos[g - g0]++;
        pairs[2 * p] = dataBits[k];
        pairs[2 * p + 1] = lab;
      }
      cursor[c] = k;
    }
    return { ptr, pairs };
  }
}

/** What rankGene reads and adds to: a WilcoxonWork's labelled cells, groups and outputs. */
export type RankOutputs = Pick<WilcoxonWork, 'n' | 'nGroups' | 'rankSum' | 'nzCount' | 'valSum' | 'tie'>;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Rank sums, non-zero counts, value sums and tie term of gene g from its (float32 bits, group)
 * pairs [s, e) — the values > 0 of labelled cells, in increasing cell order — added to `w`'s
 * outputs (the gene's tie term set). Also used by the streamed markers (stream/markers-kernel.ts).
 */
export function rankGene(
  w: RankOutputs,
  g: number,
  pairs: Uint32Array,
  s: number,
  e: number,
  sorter: RadixSorter,
): void {
  const { n, nGroups, rankSum, nzCount, valSum } = w;
  // positive float32 bit patterns order as the values: an LSD radix sort of (bits, group)
  const { bits, groups } = sorter.sort(pairs, s, e);
  const o = g * nGroups;
  const nnz = e - s;
  const n0 = n - nnz;
  let tie = n0 * n0 * n0 - n0;
  let i = 0;
  while (i < nnz) {
    let j = i + 1;
    while (j < nnz && bits[j] === bits[i]) j++;
    const t = j - i;
    tie += t * t * t - t;
    const rank = n0 + (i + 1 + j) / 2; // average of ranks n0+i+1 … n0+j
    u32[0] = bits[i];
    const value = f32[0];
    for (let k = i; k < j; k++) {
      const grp = o + groups[k];
      rankSum[grp] += rank;
      nzCount[grp]++;
      valSum[grp] += value;
    }
    i = j;
  }
  w.tie[g] = tie;
}

/**
 * LSD radix sort of (32-bit key, group) pairs (stored side by side) in 3 passes of 11 bits (the three digit histograms
 * counted in one read; passes whose digit is the same for every key are skipped); short runs use
 * insertion sort. Stable; scratch reused.
 */
export class RadixSorter {
  private a = new Uint32Array(0);
  private b = new Uint32Array(0);
  private ga = new Int32Array(0);
  private gb = new Int32Array(0);
  private readonly count = new Uint32Array(3 * 2048);

  sort(pairs: Uint32Array, s: number, e: number): { bits: Uint32Array; groups: Int32Array } {
    const n = e - s;
    if (this.a.length < n) {
      const size = Math.max(n, this.a.length * 2);
      this.a = new Uint32Array(size);
      this.b = new Uint32Array(size);
      this.ga = new Int32Array(size);
      this.gb = new Int32Array(size);
    }
    let src = this.a;
    let gsrc = this.ga;
    let dst = this.b;
    let gdst = this.gb;
    if (n <= 64) {
      unpair(pairs, s, n, src, gsrc);
      insertionSort(src, gsrc, n);
      return { bits: src.subarray(0, n), groups: gsrc.subarray(0, n) };
    }
    const count = this.count;
    count.fill(0);
    for (let q = 2 * s; q < 2 * e; q += 2) {
      const x = pairs[q];
      count[x & 2047]++;
      count[2048 + ((x >>> 11) & 2047)]++;
      count[4096 + (x >>> 22)]++;
    }
    // the first pass that moves anything reads the pairs directly (no unpairing copy)
    let paired = true;
    for (let pass = 0; pass < 3; pass++) {
      const shift = 11 * pass;
      const base = 2048 * pass;
      if (count[base + ((pairs[2 * s] >>> shift) & 2047)] === n) continue;
      let sum = 0;
      for (let d = base; d < base + 2048; d++) {
        const c = count[d];
        count[d] = sum;
        sum += c;
      }
      if (paired) {
        for (let q = 2 * s; q < 2 * e; q += 2) {
          const x = pairs[q];
          const p = count[base + ((x >>> shift) & 2047)]++;
          src[p] = x;
          gsrc[p] = pairs[q + 1];
        }
        paired = false;
        continue;
      }
      for (let i = 0; i < n; i++) {
        const p = count[base + ((src[i] >>> shift) & 2047)]++;
        dst[p] = src[i];
        gdst[p] = gsrc[i];
      }
      [src, dst] = [dst, src];
      [gsrc, gdst] = [gdst, gsrc];
    }
    if (paired) unpair(pairs, s, n, src, gsrc);
    return { bits: src.subarray(0, n), groups: gsrc.subarray(0, n) };
  }
}

/** keys[i], groups[i] = the i-th (key, group) pair from pair s on. */
function unpair(pairs: Uint32Array, s: number, n: number, keys: Uint32Array, groups: Int32Array): void {
  for (let i = 0, q = 2 * s; i < n; i++, q += 2) {
    keys[i] = pairs[q];
    groups[i] = pairs[q + 1];
  }
}

function insertionSort(keys: Uint32Array, groups: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const k = keys[i];
    const g = groups[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      groups[j + 1] = groups[j];
      j--;
    }
    keys[j + 1] = k;
    groups[j + 1] = g;
  }
}

// Worker entry: wilcoxon.ts starts this file with { task: 'wilcoxon', work } (shared arrays).
if (!isMainThread && workerData?.task === 'wilcoxon') {
  const w = workerData.work as WilcoxonWork;
  let current = -1;
  countValues(w, false);
  while (Atomics.load(w.control, COUNTED) === 0) Atomics.wait(w.control, COUNTED, 0);
  try {
    runBlocks(
      w,
      BLOCK_BY_WORKER,
      (b) => (current = b),
      () => {
        Atomics.store(w.control, WORKER_STARTED, 1);
        Atomics.notify(w.control, WORKER_STARTED);
      },
    );
  } catch {
    // the block being run is left to the calling thread
    for (let b = current + 1; b < w.blockStart.length - 1; b++) {
      if (Atomics.compareExchange(w.state, b, 0, BLOCK_FAILED) === 0) Atomics.notify(w.state, b);
    }
  }
}
