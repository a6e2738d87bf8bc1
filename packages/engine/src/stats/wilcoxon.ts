import type { CountMatrix } from '@cellcloud/formats/matrix';
import { toShared } from '../methods/sparse-pca';
import { benjaminiHochberg, twoSidedNormalP } from './normal';
import {
  BLOCK_BY_CALLER,
  BLOCK_FAILED,
  CONTROL_SLOTS,
  countValues,
  rerunBlock,
  runBlocks,
  type RankOutputs,
  type WilcoxonWork,
  WORKER_STARTED,
} from './wilcoxon-kernel';
import { endHelperWorker, engineThreads, helperWorkersExited, startHelperWorker } from '../threads';

/**
 * Wilcoxon rank-sum test of every gene, each group vs the rest of the labelled cells, as scanpy's
 * `rank_genes_groups(method='wilcoxon', tie_correct=True)` does: normal approximation with the tie
 * correction, two-sided p, Benjamini–Hochberg per group; log2FC from log1p-normalized means
 * (log2((expm1(mean_g)+1e-9)/(expm1(mean_rest)+1e-9))); pct = fraction of cells with value > 0.
 *
 * Input: the log-normalized matrix in the canonical cell-major layout; labels[c] = group index or
 * −1 (cell not tested). Genes are processed in blocks transposed on the fly, so memory stays at
 * one block of the matrix per thread (at most ~64 MB, wilcoxonBlockGenes) whatever the dataset size.
 */
export interface GroupTestResult {
  /** Per group: arrays of length nGenes. */
  z: Float64Array[];
  pval: Float64Array[];
  padj: Float64Array[];
  log2fc: Float64Array[];
  meanGroup: Float64Array[];
  pct1: Float64Array[];
  pct2: Float64Array[];
}

/** At most this many genes per transposed block (fewer when the cells are many: see below). */
export const WILCOXON_BLOCK_GENES = 2048;
/**
 * Stored values per block at most (8 B each: float32 bits + group), i.e. ~64 MB per block and
 * thread (each thread reuses one block buffer). Was 32 Mi values (256 MB): smaller blocks cost only
 * a binary search per cell when a thread moves to a block that does not follow its last one.
 */
export const WILCOXON_BLOCK_VALUES = 8 * 1024 * 1024;

/**
 * Genes per transposed block: 2,048, fewer when the average gene holds so many values that a
 * block would exceed WILCOXON_BLOCK_VALUES (issue 14: at 500k cells a 2,048-gene block is ~1.2 GB).
 * The statistics do not depend on it (each gene is tested on its own).
 */
export function wilcoxonBlockGenes(nnz: number, nGenes: number): number {
  const perGene = nnz / Math.max(1, nGenes);
  return Math.max(
    64,
    Math.min(WILCOXON_BLOCK_GENES, Math.floor(WILCOXON_BLOCK_VALUES / Math.max(1, perGene))),
  );
}

/** Stored values from which the test runs on two threads (below, a worker's start costs more than it saves). */
export const WILCOXON_PARALLEL_MIN_VALUES = 4_000_000;

/**
 * Block boundaries (first gene of each block, nGenes last): blocks of `size` genes; on two threads
 * the blocks then shrink over the last genes (each a quarter of the genes left, at least 256) so
 * that the two threads finish close together. Each thread holds one block at a time (16 B per
 * block value in all, as memory.ts counts). The boundaries do not change any result.
 */
export function wilcoxonBlocks(nGenes: number, size: number, parallel: boolean): Int32Array {
  const starts = [0];
  for (let g = 0; g < nGenes;) {
    const step = parallel ? Math.min(size, Math.max(256, Math.ceil((nGenes - g) / 4))) : size;
    g = Math.min(nGenes, g + step);
    starts.push(g);
  }
  return Int32Array.from(starts);
}

export interface WilcoxonOptions {
  /** 2 (default): blocks of genes shared with a worker thread when the matrix is in shared memory; 1: one thread. */
  threads?: number;
  /** Two threads only from this many stored values (default WILCOXON_PARALLEL_MIN_VALUES). */
  parallelMinValues?: number;
  /**
   * Tests: the calling thread waits (at most 30 s) until the worker has claimed a block before it
   * claims any, so that both threads take part even on small data.
   */
  awaitWorker?: boolean;
}

/**
 * Resolves once every worker thread started by wilcoxonByGroup so far has exited (and any other
 * helper worker ended so far: threads.ts). Until then the worker still references the matrix's
 * shared buffers (terminate() is asynchronous), so the normalized values cannot be freed even
 * when nothing on this thread reads them any more.
 */
export function wilcoxonWorkersExited(): Promise<void> {
  return helperWorkersExited();
}

/** Blocks of the last wilcoxonByGroup call run by the worker thread, of all. */
export const lastWilcoxon = { inWorker: 0, blocks: 0 };

export function wilcoxonByGroup(
  norm: CountMatrix,
  labels: Int32Array,
  nGroups: number,
  onProgress?: (fraction: number) => void,
  options: WilcoxonOptions = {},
): GroupTestResult {
  const { nGenes, nCells } = norm;
  const { groupSize, n } = groupSizes(labels, nCells, nGroups);
  const nnz = norm.indices.length;
  const parallel =
    (options.threads ?? engineThreads()) > 1 &&
    nnz >= (options.parallelMinValues ?? WILCOXON_PARALLEL_MIN_VALUES) &&
    norm.data.buffer instanceof SharedArrayBuffer &&
    norm.indices.buffer instanceof SharedArrayBuffer;
  const starts = wilcoxonBlocks(nGenes, wilcoxonBlockGenes(nnz, nGenes), parallel);
  const nBlocks = starts.length - 1;
  const buffer = (bytes: number) => (parallel ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const f64 = (length: number) => new Float64Array(buffer(length * 8));
  const work: WilcoxonWork = {
    nGenes,
    nCells,
    nGroups,
    n,
    indptr: parallel ? toShared(norm.indptr) : norm.indptr,
    indices: norm.indices,
    data: norm.data,
    labels: parallel ? toShared(labels) : labels,
    blockStart: parallel ? toShared(starts) : starts,
    control: new Int32Array(buffer(CONTROL_SLOTS * 4)),
    geneCount: f64(nGenes),
    upperCount: f64(nGenes),
    state: new Int32Array(buffer(nBlocks * 4)),
    rankSum: f64(nGenes * nGroups),
    nzCount: f64(nGenes * nGroups),
    valSum: f64(nGenes * nGroups),
    tie: f64(nGenes),
  };
  runOnTwoThreads(work, parallel, onProgress, options.awaitWorker);
  return groupStatistics(work, groupSize);
}

/**
 * Runs every block of `work`: on the calling thread alone, or with a worker thread claiming blocks
 * too (the calling thread then waits for the worker's last blocks, or reruns a block whose worker failed).
 */
function runOnTwoThreads(
  work: WilcoxonWork,
  parallel: boolean,
  onProgress?: (fraction: number) => void,
  awaitWorker = false,
): void {
  const nBlocks = work.state.length;
  // a failed worker's unfinished blocks are marked failed, or left to this thread
  const worker = parallel
    ? startHelperWorker(new URL('./wilcoxon-kernel.ts', import.meta.url), { task: 'wilcoxon', work })
    : undefined;
  countValues(work, true);
  if (worker && awaitWorker) Atomics.wait(work.control, WORKER_STARTED, 0, 30_000);
  let finished = 0;
  const mine = runBlocks(work, BLOCK_BY_CALLER, () => onProgress?.(Math.min(++finished, nBlocks) / nBlocks));
  lastWilcoxon.blocks = nBlocks;
  lastWilcoxon.inWorker = nBlocks - mine;
  for (let b = 0; b < nBlocks; b++) {
    while (Atomics.load(work.state, b) === 0) Atomics.wait(work.state, b, 0);
    if (work.state[b] === BLOCK_FAILED) {
      rerunBlock(work, b);
      lastWilcoxon.inWorker--;
    }
  }
  // the worker holds the shared matrix until it has exited: wilcoxonWorkersExited() awaits that
  endHelperWorker(worker);
  onProgress?.(1);
}

/** Cells of each group among the first nCells (labels ≥ 0), and n, the labelled cells in all. */
export function groupSizes(
  labels: Int32Array,
  nCells: number,
  nGroups: number,
): { groupSize: Float64Array; n: number } {
  const groupSize = new Float64Array(nGroups);
  let n = 0;
  for (let c = 0; c < nCells; c++) {
    if (labels[c] >= 0) {
      groupSize[labels[c]]++;
      n++;
    }
  }
  return { groupSize, n };
}

/** z, p, BH-adjusted p, log2FC, mean and pct per group and gene from the per-gene sums. */
export function groupStatistics(
  work: RankOutputs & { nGenes: number },
  groupSize: Float64Array,
): GroupTestResult {
  const { nGenes, nGroups, n, rankSum, nzCount, valSum, tie } = work;
  const mk = () => Array.from({ length: nGroups }, () => new Float64Array(nGenes));
  const res: GroupTestResult = {
    z: mk(),
    pval: mk(),
    padj: mk(),
    log2fc: mk(),
    meanGroup: mk(),
    pct1: mk(),
    pct2: mk(),
  };
  for (let g = 0; g < nGenes; g++) {
    const o = g * nGroups;
    let nnz = 0;
    let totalSum = 0;
    for (let k = 0; k < nGroups; k++) {
      nnz += nzCount[o + k];
      totalSum += valSum[o + k];
    }
    const zeroRank = (n - nnz + 1) / 2;
    const tieCorr = n > 1 ? 1 - tie[g] / (n * n * n - n) : 0;
    for (let k = 0; k < nGroups; k++) {
      const nk = groupSize[k];
      const m = n - nk;
      const r = rankSum[o + k] + zeroRank * (nk - nzCount[o + k]);
      const sd = Math.sqrt((tieCorr * nk * m * (n + 1)) / 12);
      const z = sd > 0 ? (r - (nk * (n + 1)) / 2) / sd : 0;
      res.z[k][g] = z;
      res.pval[k][g] = sd > 0 ? twoSidedNormalP(z) : 1;
      const meanG = nk > 0 ? valSum[o + k] / nk : 0;
      const meanR = m > 0 ? (totalSum - valSum[o + k]) / m : 0;
      res.meanGroup[k][g] = meanG;
      res.log2fc[k][g] = Math.log2((Math.expm1(meanG) + 1e-9) / (Math.expm1(meanR) + 1e-9));
      res.pct1[k][g] = nk > 0 ? nzCount[o + k] / nk : 0;
      res.pct2[k][g] = m > 0 ? (nnz - nzCount[o + k]) / m : 0;
    }
  }
  for (let k = 0; k < nGroups; k++) res.padj[k] = benjaminiHochberg(res.pval[k]);
  return res;
}
