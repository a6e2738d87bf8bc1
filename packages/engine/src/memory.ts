import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { COUNT_TABLE_SIZE } from './methods/sparse-products';
import { wilcoxonBlockGenes } from './stats/wilcoxon';
import { engineThreads } from './threads';
import { parseParams } from './validate';

export interface MemoryEstimateInput {
  cells: number;
  genes: number;
  /** Non-zero counts over all samples. */
  nnz: number;
  params?: AnalysisParamsInput;
  /** Non-zeros of the largest sample (Scrublet runs per sample); default: `nnz` (one sample). */
  largestSampleNnz?: number;
  /** Whether runAnalysis gets `{ releaseSamples: true }` (the samples are emptied once merged); default false. */
  releaseSamples?: boolean;
  /**
   * Whether the outputs are written alongside the embeddings (runAnalysis `whileEmbeddings`, as the
   * job child does): the normalized values are then held through them; default true.
   */
  writesAlongside?: boolean;
}

const MB = 1024 * 1024;

/**
 * Upper estimate of the peak resident memory (bytes) of one `runAnalysis` + `writeOutputs` in a
 * child process, for the job runner's budget check before spawning (scran.js aborts the whole
 * process on out-of-memory). The peak is the largest of these phases (bytes per non-zero unless
 * said; one copy of a count matrix = Float32 value + Uint32 index = 8):
 *  - merge: the merged copy (8) + the caller's sample matrices (8; with `releaseSamples` each is
 *    freed once copied — ArrayBuffer.transfer(0), issue 14: dropped references waited for a full
 *    GC — so only the sample being copied, 8 × the largest); the one-shot runner then filters and
 *    drops doublets in place (no further copy);
 *  - Scrublet, one sample at a time: counts (8) + that sample's copy over its expressed genes
 *    with log values (12 × its share) — its HVG, simulated and PCA temporaries are smaller;
 *  - PCA: counts (8) + normalized values (4, indices shared) + the HVG submatrix, clipped in place
 *    (6 × HVG share: 2-byte gene indices, subsetGenesCompact; the share of the non-zeros in the HVGs is taken as 3 × HVGs / genes: measured
 *    ≤ 0.3 on synth100k, whose HVGs are its most expressed genes) + the randomized SVD's cells × 60
 *    float64 blocks (1,440 B per cell);
 *  - markers: counts + normalized (12) + the Wilcoxon gene blocks (16 B per block value, blocks
 *    capped at WILCOXON_BLOCK_VALUES values) + PCs, neighbour lists and the UMAP layouts running
 *    alongside (2,640 B per cell) — the HVG submatrix is gone by then;
 *  - embeddings (t-SNE; the UMAP layouts joined): counts (8) + normalized (4) and ~64 MB in flight
 *    when the outputs are written alongside (`writesAlongside`, the job child) — otherwise one-shot
 *    runs drop the normalized values after the markers and recompute them for the result
 *    (runner.ts) — + 11,000 B per cell
 *    (the t-SNE's 90-neighbour lists, affinities and their row copies, the layouts' graphs:
 *    fitted to synth100k, whose pipeline peaked at 3,023 MB with the normalized values still
 *    held, ~9.7 KB per cell beyond them) + 150 MB for the worker threads;
 *  - writing: counts + normalized (12) and ~64 MB in flight — analysis.h5ad and the explorer's
 *    gene-major chunks stream into the sink's opened files (issue 14; the job child's storage sink
 *    opens them);
 *  - per cell in every phase 1,000 B (barcodes, QC and obs columns, result embeddings);
 *    cell-cycle regression densifies the HVGs (cells × HVGs × 8);
 *  - a fixed 400 MB for Node, the WebAssembly module and code.
 * Measured with npm run bench:engine (releaseSamples, default parameters; docs/benchmarks/engine.md
 * "200k and 500k"): synth20k (29.6M non-zeros) whole job with writing 1,034 MB, estimate 1,100 MB;
 * synth100k (148M) to the end of the markers 2,422 MB, whole job with writing 3,144 MB measured before
 * the normalized values were dropped (−565 MB expected, not re-measured), estimate 2,919 MB;
 * synth500k (742M) merge and Scrublet 6,517 MB; estimate 12,027 MB (11.75 GiB, embeddings phase)
 * when writing after the pipeline, 14.5 GiB when writing alongside the embeddings.
 */
export function estimateMemoryBytes(input: MemoryEstimateInput): number {
  const params = parseParams(input.params ?? {});
  const { cells, genes, nnz } = input;
  const largest = Math.min(nnz, input.largestSampleNnz ?? nnz);
  const hvgShare = Math.min(1, (params.numberOfHighlyVariableGenes / Math.max(1, genes)) * 3);
  const blockValues = Math.min(nnz, wilcoxonBlockGenes(nnz, genes) * (nnz / Math.max(1, genes)));
  const samples = input.releaseSamples ? 0 : 8 * nnz;
  const merge = (input.releaseSamples ? 8 * largest : samples) + 8 * nnz;
  const scrublet = params.doubletDetectionAndRemoval ? samples + 8 * nnz + 12 * largest : 0;
  const ambient = params.ambientRnaRemoval.enabled ? samples + 8 * nnz + 2 * 8 * largest : 0;
  const pca = samples + nnz * (8 + 4 + 6 * hvgShare) + cells * 1440;
  const markers = samples + nnz * (8 + 4) + 16 * blockValues + cells * 2640;
  const normalizedHeld = input.writesAlongside === false ? 0 : 4 * nnz + 64 * MB;
  const embeddings = samples + 8 * nnz + normalizedHeld + 150 * MB + cells * 11_000;
  const writing = samples + nnz * (8 + 4) + 64 * MB;
  let perCell = 1000;
  if (params.removeCellCycleEffects) perCell += params.numberOfHighlyVariableGenes * 4 * 2;
  const perGene = 200; // names, statistics; markers rows are per cluster × gene
  const markerRows = genes * 40 * 120; // up to ~40 clusters × ~120 bytes per row object
  const peak = Math.max(merge, scrublet, ambient, pca, markers, embeddings, writing);
  return Math.ceil(400 * MB + peak + cells * perCell + genes * perGene + markerRows);
}

/**
 * From this many input cells (all samples together) an analysis job runs out of core
 * (runAnalysisStreamed over count stores, docs/engine-scaling.md "Out-of-core path"); below it
 * the in-memory runAnalysis, which is faster and computes every step. 200,000 cells: the in-memory
 * estimate of an atlas of 50k-cell samples there is 6.2 GiB (writing alongside) against 2.9 GiB
 * streamed (the job child converting its samples), and from there on it exceeds the streamed one
 * by more than 2× (a default 8 GiB worker refuses such an atlas in memory from ≈ 250k cells); it is also where the streamed run drops t-SNE and the 3-D layouts
 * (STREAMED_ALL_LAYOUTS_MAX_CELLS), so a job either side of it gets the layouts it always got.
 * The job server may lower it (CELLCLOUD_STREAMED_MIN_CELLS: tests).
 */
export const STREAMED_MIN_CELLS = 200_000;

/** Up to this many input cells the streamed run computes t-SNE and the 3-D layouts (stream/run-streamed.ts). */
const STREAMED_ALL_LAYOUTS_CELLS = 200_000;

export interface StreamedMemoryEstimateInput extends Omit<MemoryEstimateInput, 'releaseSamples'> {
  /**
   * Whether each sample is first converted into a count store by the whole-matrix reader (the job
   * child: a stored canonical counts.h5ad holds its counts in X, which writeStoreFromH5ad reads
   * whole): the largest sample's file bytes, h5wasm's copy of them and its matrix are then held
   * for a moment, one sample at a time. Default false (stores given, as bench:engine).
   */
  convertsSamples?: boolean;
  /** The engine's threads (the Leiden restarts run on as many); default engineThreads(). */
  threads?: number;
}

/**
 * Bytes per cell held in every phase of the streamed run: QC and obs columns, masks, size factors,
 * barcodes, sample of each cell. An upper figure from synth1m (docs/engine-scaling.md "Memory
 * estimate"): its Scrublet phase, the same 50k-cell samples as store100k's, peaked at most
 * 246 MiB above store100k's for 900k more cells (≤ 287 B per cell).
 */
const STREAMED_BYTES_PER_CELL = 300;

/** The PCs held from the PCA on: 50 float64 components per cell. */
const PCS_BYTES_PER_CELL = 400;

/**
 * The neighbours, the Leiden restarts on one thread and the 2-D UMAP started alongside, above the
 * PCs: `npm run bench:engine -- layouts-memory` measured 387 MiB at 200k cells and 920 MiB at 500k
 * on one thread, and 693 MiB at 300k on two (with RESTART_THREAD_*): 32 MiB + 1,887 B per cell
 * covers the three. Since the restarts run on a breadth-first renamed copy of the graph
 * (methods/community-order.ts, issue 33) one thread holds that copy too, as two already did (it
 * replaces their shared copy): + 290 B per cell, from the arrays' sizes — 12 B per stored edge
 * (≈ 23 per cell in the fuzzy graph at 1M cells) and 12 B per cell of node maps while it is made
 * (counted on two threads as well, so an upper figure there).
 */
const CLUSTERING_FIXED = 32 * MB;
const CLUSTERING_BYTES_PER_CELL = 1887 + 290;

/**
 * Each Leiden restart thread beyond the calling one (methods/community-restarts.ts: engineThreads()
 * − 1 workers): its isolate and one restart's working arrays. 100 MiB more at 200k cells
 * (layouts-memory, 2 threads against 1) and 271 MiB more at 1M (synth1m: 3,062 MiB against 2,791),
 * so 57 MiB + 224 B per cell.
 */
const RESTART_THREAD_FIXED = 57 * MB;
const RESTART_THREAD_BYTES_PER_CELL = 224;

/**
 * The HVGs' share of the non-zeros: 3 × HVGs / genes (the in-memory estimate's), and at least
 * HVGs / 8,000 — pbmc3k's 2,000 seurat_v3 HVGs hold 23 % of its non-zeros whatever the genes listed
 * (a 10x gene list of 33k genes adds none), where 3 × HVGs / genes would give 18 %. The synthetic
 * atlases' HVGs hold only 9.2 % (synth 20k cells), so on them the PCA phase is an upper figure.
 */
function hvgValueShare(hvgs: number, genes: number): number {
  return Math.min(1, Math.max((3 * hvgs) / Math.max(1, genes), hvgs / 8000));
}

/**
 * Upper estimate of the peak resident memory (bytes) of one runAnalysisStreamed + streamed writing
 * (startStreamedOutputs / writeStreamedOutputs) in a child process: the job runner's budget check
 * on the out-of-core path. Nothing is held per non-zero of the whole dataset — the counts stay in
 * the stores and are decoded chunk by chunk (≤ a few MB per chunk, ≤ 4M values per gene block) —
 * so the peak is the largest of these phases, each of them per non-zero of the largest sample,
 * per non-zero of the HVGs, per cell, or fixed (docs/engine-scaling.md "Memory estimate" gives the
 * measurements each figure comes from):
 *  - converting a sample (`convertsSamples`): its canonical .h5ad read whole (≈ 2 × its file,
 *    ≈ 5 B per non-zero compressed) and its matrix with the reader's temporaries (≈ 20): 30 B per
 *    non-zero of the largest sample, freed before the next sample;
 *  - Scrublet, one sample at a time (stream/doublets.ts): the sample's filtered cells loaded (8)
 *    + Scrublet's copy over its expressed genes with log values and its simulated doublets (12):
 *    21 B per non-zero of the largest sample (store100k's Scrublet phase measured 20.5);
 *  - PCA (stream/pca.ts): the HVG submatrix gathered into shared memory, 4 B per HVG value (2-byte
 *    counts and gene indices; share of the values in the HVGs: `hvgValueShare`) + 880 B per cell (its
 *    indptr, size factor and count table, the scores' shared output, their float32 and float64
 *    copies);
 *  - clustering (neighbours, the Leiden restarts on engineThreads() threads, the 2-D UMAP
 *    alongside): the PCs (400 B per cell) + 32 MiB + 2,177 B per cell + per extra thread
 *    57 MiB + 224 B per cell; the measured peak at 1M cells;
 *  - markers (stream/markers.ts): two 4M-value block slots and the block being decoded (96 MB)
 *    + PCs, neighbour lists and the 2-D UMAP running alongside: 2,000 B per cell (synth1m's run
 *    on one Leiden thread peaked at 2,791 MiB, its markers starting at 2,464);
 *  - layouts up to 200,000 input cells: t-SNE, 3-D t-SNE and both UMAPs (11,000 B per cell, the
 *    in-memory path's figure: the same steps on the same PCs) + 150 MB of worker threads; the
 *    outputs' matrices are written meanwhile (≈ 128 MB in flight: a cell chunk of counts and of
 *    normalized values, a gene block, the deflate buffers) — above, the 2-D UMAP alone, counted
 *    in the clustering and markers phases, and the writing's 128 MB beside the markers' figure;
 *  - 300 B per cell in every phase (`STREAMED_BYTES_PER_CELL`);
 *  - a fixed 400 MB for Node, the WebAssembly module and code, and per gene its names and
 *    statistics and the marker rows (as in estimateMemoryBytes).
 * Measured peaks against it: store100k 1,973 MiB (estimate 2,008, Scrublet), synth1m 3,062 MiB
 * (estimate 3,319, PCA; clustering 3,265).
 */
export function estimateStreamedMemoryBytes(input: StreamedMemoryEstimateInput): number {
  const params = parseParams(input.params ?? {});
  const { cells, genes, nnz } = input;
  const threads = input.threads ?? engineThreads();
  const largest = Math.min(nnz, input.largestSampleNnz ?? nnz);
  const hvgValues = hvgValueShare(params.numberOfHighlyVariableGenes, genes) * nnz;
  const convert = input.convertsSamples ? 30 * largest : 0;
  const scrublet = params.doubletDetectionAndRemoval ? 21 * largest : 0;
  const pca = 4 * hvgValues + cells * (8 + 8 + 4 * COUNT_TABLE_SIZE + 800);
  const extraThreads = Math.max(0, threads - 1);
  const clustering =
    CLUSTERING_FIXED +
    extraThreads * RESTART_THREAD_FIXED +
    cells * (PCS_BYTES_PER_CELL + CLUSTERING_BYTES_PER_CELL + extraThreads * RESTART_THREAD_BYTES_PER_CELL);
  const allLayouts = cells <= STREAMED_ALL_LAYOUTS_CELLS;
  const markers = 96 * MB + (allLayouts ? 0 : 128 * MB) + cells * 2000;
  const layouts = allLayouts ? 150 * MB + 128 * MB + cells * 11_000 : 0;
  const perGene = 200;
  const markerRows = genes * 40 * 120;
  const peak = Math.max(convert, scrublet, pca, clustering, markers, layouts);
  return Math.ceil(400 * MB + peak + cells * STREAMED_BYTES_PER_CELL + genes * perGene + markerRows);
}

/**
 * The options the streamed run does not offer yet (runAnalysisStreamed and streamedHvg reject
 * them; batch correction there knows only the samples as batches): a job with any of them stays
 * on the in-memory path whatever its size. Empty when the analysis can run out of core.
 */
export function notStreamable(paramsInput?: AnalysisParamsInput): string[] {
  const p = parseParams(paramsInput ?? {});
  const off: [boolean, string][] = [
    [p.ambientRnaRemoval.enabled, 'ambientRnaRemoval'],
    [p.removeCellCycleEffects, 'removeCellCycleEffects'],
    [p.hvgMethod === 'pearson', 'hvgMethod'],
    [p.batchEffectRemoval.enabled && p.batchEffectRemoval.batchKey !== 'Sample ID', 'batchEffectRemoval'],
  ];
  return off.filter(([on]) => on).map(([, name]) => name);
}
