import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { GeneBlocks } from '@cellcloud/formats/cell-chunks';
import { degRows } from '../markers';
import { toShared } from '../methods/sparse-pca';
import { groupSizes, groupStatistics, WILCOXON_PARALLEL_MIN_VALUES } from '../stats/wilcoxon';
import { RadixSorter, rankGene } from '../stats/wilcoxon-kernel';
import { endHelperWorker, engineThreads, helperWorkersExited, startHelperWorker } from '../threads';
import {
  CONTROL_SLOTS,
  GeneRanker,
  PUBLISHED,
  STARTED,
  type RankKernel,
  type StreamedRankWork,
} from './markers-kernel';
import { geneRanges } from './views';

/**
 * Stored values per gene block at most: 4M values with their cell indices are 32 MB per slot,
 * two slots plus the block being decoded ≈ 96 MB whatever the number of cells (the in-memory test
 * holds ≤ 64 MB per thread, stats/wilcoxon.ts).
 */
export const STREAMED_MARKER_BLOCK_VALUES = 4 * 1024 * 1024;

export interface StreamedMarkersOptions {
  /** Stored values per gene block at most (default STREAMED_MARKER_BLOCK_VALUES). */
  blockValues?: number;
  /** 2 (default: engineThreads()): a worker thread ranks genes too; 1: the calling thread alone. */
  threads?: number;
  /** Two threads only from this many stored values (default WILCOXON_PARALLEL_MIN_VALUES). */
  parallelMinValues?: number;
  /** Tests: the calling thread waits (at most 30 s) for the worker to start before it ranks any gene. */
  awaitWorker?: boolean;
}

export interface StreamedMarkersInput {
  /** Log-normalized values, gene-major (e.g. logNormalizedGenes of the kept cells). */
  genes: GeneBlocks;
  /** Cluster index of each cell (−1: not tested). */
  clusterCodes: Int32Array;
  clusterLabels: string[];
  geneIds: string[];
  /** Gene names of the rows, as the in-memory markers step writes them. */
  geneSymbols: string[];
  /** The analysis parameters (the markers take none, as the in-memory step). */
  params?: unknown;
  options?: StreamedMarkersOptions;
  progress?: (fraction: number) => void;
}

/**
 * Resolves once every worker thread streamedMarkers started has exited (they hold its block
 * slots), and any other helper worker ended so far (threads.ts).
 */
export function streamedMarkersWorkersExited(): Promise<void> {
  return helperWorkersExited();
}

/** Genes ranked by the worker thread in the last streamedMarkers call, of all, and its blocks. */
export const lastStreamedMarkers = { inWorker: 0, genes: 0, blocks: 0 };

/**
 * Wilcoxon markers of every cluster vs the rest from gene blocks (issue 33): the rows of the
 * in-memory markers step (findMarkers, markers.ts) on the same log-normalized values — the same
 * statistics, order, ties and names — with memory bounded by the block size, not the non-zeros.
 * Blocks are read in order by the calling thread; with two threads a worker ranks the genes of
 * block b while block b + 1 is read, and both claim the rest (stream/markers-kernel.ts).
 */
export function streamedMarkers(input: StreamedMarkersInput): DegRow[] {
  const { genes, clusterCodes: labels, clusterLabels, geneSymbols, options = {} } = input;
  const { nGenes, nCells } = genes;
  if (labels.length !== nCells) throw new Error(`${labels.length} cluster codes for ${nCells} cells`);
  if (geneSymbols.length !== nGenes || input.geneIds.length !== nGenes)
    throw new Error(`gene names for ${geneSymbols.length} / ${input.geneIds.length} genes, not ${nGenes}`);
  const nGroups = clusterLabels.length;
  const { groupSize, n } = groupSizes(labels, nCells, nGroups);
  const geneNnz = genes.geneNnz;
  let nnz = 0;
  for (let g = 0; g < nGenes; g++) nnz += geneNnz[g];
  const parallel =
    (options.threads ?? engineThreads()) > 1 &&
    nnz >= (options.parallelMinValues ?? WILCOXON_PARALLEL_MIN_VALUES) &&
    nGenes > 0;
  const ranges = geneRanges(geneNnz, options.blockValues ?? STREAMED_MARKER_BLOCK_VALUES);
  const nBlocks = ranges.length;
  if (nBlocks === 0) return [];
  let maxValues = 0;
  let maxWidth = 0;
  for (const [g0, g1] of ranges) {
    let v = 0;
    for (let g = g0; g < g1; g++) v += geneNnz[g];
    maxValues = Math.max(maxValues, v);
    maxWidth = Math.max(maxWidth, g1 - g0);
  }
  const blockStart = Int32Array.from([...ranges.map(([g0]) => g0), nGenes]);
  const buffer = (bytes: number) => (parallel ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const f64 = (length: number) => new Float64Array(buffer(length * 8));
  const slot = () => ({
    indptr: f64(maxWidth + 1),
    indices: new Uint32Array(buffer(maxValues * 4)),
    data: new Float32Array(buffer(maxValues * 4)),
  });
  const work: StreamedRankWork = {
    nGenes,
    nCells,
    nGroups,
    n,
    labels: narrowLabels(labels, nGroups, buffer),
    blockStart: parallel ? toShared(blockStart) : blockStart,
    slots: parallel ? [slot(), slot()] : [slot()],
    control: new Int32Array(buffer(CONTROL_SLOTS * 4)),
    claimed: new Int32Array(buffer(nBlocks * 4)),
    done: new Int32Array(buffer(nBlocks * 4)),
    // about 32 runs per block: small enough to share a block's last genes, large enough to cost nothing
    runGenes: Math.max(1, Math.ceil(maxWidth / 32)),
    rankSum: f64(nGenes * nGroups),
    nzCount: f64(nGenes * nGroups),
    valSum: f64(nGenes * nGroups),
    tie: f64(nGenes),
  };
  const load = (b: number) => {
    const block = genes.genes(ranges[b][0], ranges[b][1]);
    const s = work.slots[b % work.slots.length];
    s.indptr.set(block.indptr);
    s.indices.set(block.indices);
    s.data.set(block.data);
  };
  // a failed worker's unfinished run is left to this thread (markers-kernel.ts)
  const worker = parallel
    ? startHelperWorker(new URL('./markers-kernel.ts', import.meta.url), { task: 'wilcoxon-genes', work })
    : undefined;
  const kernel: RankKernel = { rankGene, RadixSorter };
  const ranker = new GeneRanker(work, kernel);
  let byCaller = 0;
  try {
    load(0);
    Atomics.store(work.control, PUBLISHED, 1);
    Atomics.notify(work.control, PUBLISHED);
    if (worker && options.awaitWorker) Atomics.wait(work.control, STARTED, 0, 30_000);
    for (let b = 0; b < nBlocks; b++) {
      // with a worker, the next block is read while the worker ranks this one (two slots)
      if (worker && b + 1 < nBlocks) load(b + 1);
      byCaller += ranker.claim(b);
      ranker.awaitBlock(b);
      if (b + 1 < nBlocks) {
        if (!worker) load(b + 1);
        Atomics.store(work.control, PUBLISHED, b + 2);
        Atomics.notify(work.control, PUBLISHED);
      }
      input.progress?.((b + 1) / nBlocks);
    }
  } catch (e) {
    // a block failed to read: the worker finds nothing left to claim and runs out of blocks
    for (let b = 0; b < nBlocks; b++)
      Atomics.store(work.claimed, b, work.blockStart[b + 1] - work.blockStart[b]);
    Atomics.store(work.control, PUBLISHED, nBlocks);
    Atomics.notify(work.control, PUBLISHED);
    throw e;
  } finally {
    endHelperWorker(worker);
  }
  Object.assign(lastStreamedMarkers, { inWorker: nGenes - byCaller, genes: nGenes, blocks: nBlocks });
  const res = groupStatistics(work, groupSize);
  return clusterLabels.flatMap((name, k) => degRows(res, k, name, geneSymbols));
}

/**
 * The cluster codes in the narrowest signed integers that hold them (1 B per cell up to 127
 * groups): the rankers look a label up for every stored value, at random cells, and 1M cells'
 * labels then fit in 1 MB of cache instead of 4 MB. The same codes, so the same results.
 */
function narrowLabels(
  labels: Int32Array,
  nGroups: number,
  buffer: (bytes: number) => ArrayBufferLike,
): Int8Array | Int16Array | Int32Array {
  const Narrow = nGroups <= 127 ? Int8Array : nGroups <= 32767 ? Int16Array : Int32Array;
  // a SharedArrayBuffer with two threads (the typed array constructors take either)
  const out = new Narrow(buffer(labels.length * Narrow.BYTES_PER_ELEMENT) as ArrayBuffer);
  out.set(labels);
  return out;
}
