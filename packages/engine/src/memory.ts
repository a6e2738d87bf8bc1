import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { COUNT_TABLE_SIZE } from './methods/sparse-products';
import { wilcoxonBlockGenes } from './stats/wilcoxon';
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
 * estimate of an atlas of 50k-cell samples there is 6.2 GiB (writing alongside) against 3.0 GiB
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
}

/**
 * Upper estimate of the peak resident memory (bytes) of one runAnalysisStreamed + streamed writing
 * (startStreamedOutputs / writeStreamedOutputs) in a child process: the job runner's budget check
 * on the out-of-core path. Nothing is held per non-zero of the whole dataset — the counts stay in
 * the stores and are decoded chunk by chunk (≤ a few MB per chunk, ≤ 4M values per gene block) —
 * so the peak is the largest of these phases (bytes per non-zero unless said):
 *  - converting a sample (`convertsSamples`): its canonical .h5ad read whole (≈ 2 × its file,
 *    ≈ 5 B per non-zero compressed) and its matrix with the reader's temporaries (≈ 20): 30 × the
 *    largest sample's non-zeros, freed before the next sample;
 *  - Scrublet, one sample at a time (stream/doublets.ts): the sample's filtered cells loaded
 *    (8) + Scrublet's copy over its expressed genes with log values and its simulated doublets
 *    (12, as in estimateMemoryBytes): 20 × the largest sample;
 *  - PCA (stream/pca.ts): the HVG submatrix gathered into shared memory (4 B per HVG value: a
 *    2-byte count and a 2-byte gene index, the values decoded where the products read them, issue
 *    33 — 6 B with float32 values before, and still for values that are not integer counts below
 *    65,536; the share of the non-zeros in the HVGs taken as 3 × HVGs / genes as in
 *    estimateMemoryBytes) + per cell its indptr (8 B), size factor (8 B) and table of the values of
 *    counts 0–15 (64 B) + the scores: the block Krylov fit holds only genes-side blocks (p × 60),
 *    its scores A·V are computed 25 columns per pass into float32 (n × 25 float64 shared output +
 *    n × 50 float32) and copied to float64 for the result (400 B): 800 B per cell (1,440 with the
 *    n × 60 shared input and output and the float64 copy of the scores before);
 *  - markers (stream/markers.ts): two 4M-value block slots and the block being decoded (96 MB)
 *    + PCs, neighbour lists and the UMAP layouts started alongside (2,640 B per cell);
 *  - layouts: t-SNE, 3-D t-SNE and both UMAPs up to 200,000 input cells (11,000 B per cell, the
 *    in-memory path's figure: the same steps on the same PCs), the 2-D UMAP alone above
 *    (2,500 B per cell: `npm run bench:engine -- layouts-memory` measured neighbours, clusters and
 *    the 2-D UMAP at 2,027 B per cell above the PCs at 200k cells and 1,930 at 500k, worker
 *    threads included) + 150 MB of worker threads;
 *    the outputs' matrices are written meanwhile (≈ 128 MB in flight: a cell chunk of counts and of
 *    normalized values, a gene block, the deflate buffers);
 *  - per cell in every phase 1,000 B (barcodes, QC and obs columns, masks, result embeddings);
 *  - a fixed 400 MB for Node, the WebAssembly module and code.
 * Measured with `BENCH_WRITE=1 npm run bench:engine -- store100k` (docs/engine-scaling.md,
 * "Out-of-core path"): see there for the measured peak against this estimate.
 */
export function estimateStreamedMemoryBytes(input: StreamedMemoryEstimateInput): number {
  const params = parseParams(input.params ?? {});
  const { cells, genes, nnz } = input;
  const largest = Math.min(nnz, input.largestSampleNnz ?? nnz);
  const hvgShare = Math.min(1, (params.numberOfHighlyVariableGenes / Math.max(1, genes)) * 3);
  const convert = input.convertsSamples ? 30 * largest : 0;
  const scrublet = params.doubletDetectionAndRemoval ? 20 * largest : 0;
  const pca = 4 * hvgShare * nnz + cells * (8 + 8 + 4 * COUNT_TABLE_SIZE + 800);
  const markers = 96 * MB + cells * 2640;
  const layouts = cells <= STREAMED_ALL_LAYOUTS_CELLS ? 11_000 : 2_500;
  const embeddings = 150 * MB + 128 * MB + cells * layouts;
  const perGene = 200;
  const markerRows = genes * 40 * 120;
  const peak = Math.max(convert, scrublet, pca, markers, embeddings);
  return Math.ceil(400 * MB + peak + cells * 1000 + genes * perGene + markerRows);
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
