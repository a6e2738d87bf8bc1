import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
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
}

const MB = 1024 * 1024;

/**
 * Upper estimate of the peak resident memory (bytes) of one `runAnalysis` + `writeOutputs` in a
 * child process, for the job runner's budget check before spawning (scran.js aborts the whole
 * process on out-of-memory). The peak is the largest of these phases (bytes per non-zero unless
 * said; one copy of a count matrix = Float32 value + Uint32 index = 8):
 *  - merge: the caller's sample matrices (8, gone with `releaseSamples`) + the merged copy (8);
 *    the one-shot runner then filters and drops doublets in place (no further copy);
 *  - Scrublet, one sample at a time: counts (8) + that sample's copy over its expressed genes
 *    with log values (12 × its share) — its HVG, simulated and PCA temporaries are smaller;
 *  - after normalization: counts (8) + normalized values (4, indices shared) + the PCA's HVG
 *    submatrix, clipped in place (8 × HVG share; was 12 with a clipped copy) + the Wilcoxon gene
 *    blocks (16 B per block value, blocks capped at WILCOXON_BLOCK_VALUES values — issue 14: a
 *    2,048-gene block of 500k cells was ~1.2 GB);
 *  - writing: counts + normalized (12) and ~64 MB in flight — analysis.h5ad and the explorer's
 *    gene-major chunks stream into the sink's opened files (issue 14; the job child's storage sink
 *    opens them). Streaming h5ad of synth20k's two 31M-non-zero matrices added 31 MB RSS; through
 *    h5wasm writing had added 14–17 B per non-zero (synth100k: 3,170 → 5,059 MB);
 *  - per cell in every phase: PCs (50 × 8 × 3), neighbour lists and t-SNE (90 neighbours × 16),
 *    UMAP/embeddings, clustering graph; cell-cycle regression densifies the HVGs (cells × HVGs × 8);
 *  - a fixed 400 MB for Node, the WebAssembly module and code.
 * Measured with npm run bench:engine (releaseSamples, default parameters): synth20k (29.6M
 * non-zeros) pipeline 943 MB, estimate 1,062 MB; synth100k (148M) pipeline 3,023 MB, estimate
 * 3,330 MB (analysis phase); synth200k (297M) 4,540 MB when stopped in t-SNE, estimate 6,200 MB.
 */
export function estimateMemoryBytes(input: MemoryEstimateInput): number {
  const params = parseParams(input.params ?? {});
  const { cells, genes, nnz } = input;
  const largest = Math.min(nnz, input.largestSampleNnz ?? nnz);
  const hvgShare = Math.min(1, (params.numberOfHighlyVariableGenes / Math.max(1, genes)) * 2);
  const blockValues = Math.min(nnz, wilcoxonBlockGenes(nnz, genes) * (nnz / Math.max(1, genes)));
  const samples = input.releaseSamples ? 0 : 8 * nnz;
  const merge = samples + 8 * nnz;
  const scrublet = params.doubletDetectionAndRemoval ? samples + 8 * nnz + 12 * largest : 0;
  const ambient = params.ambientRnaRemoval.enabled ? samples + 8 * nnz + 2 * 8 * largest : 0;
  const analysis = samples + nnz * (8 + 4 + 8 * hvgShare) + 16 * blockValues;
  const writing = samples + nnz * (8 + 4) + 64 * MB;
  let perCell = 50 * 8 * 3 + 90 * 16 + 2000;
  if (params.removeCellCycleEffects) perCell += params.numberOfHighlyVariableGenes * 4 * 2;
  const perGene = 200; // names, statistics; markers rows are per cluster × gene
  const markerRows = genes * 40 * 120; // up to ~40 clusters × ~120 bytes per row object
  const peak = Math.max(merge, scrublet, ambient, analysis, writing);
  return Math.ceil(400 * MB + peak + cells * perCell + genes * perGene + markerRows);
}
