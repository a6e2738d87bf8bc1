import type { AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { parseParams } from './validate';

export interface MemoryEstimateInput {
  cells: number;
  genes: number;
  /** Non-zero counts over all samples. */
  nnz: number;
  params?: AnalysisParamsInput;
}

const MB = 1024 * 1024;

/**
 * Upper estimate of the peak resident memory (bytes) of one `runAnalysis` + `writeOutputs` in a
 * child process, for the job runner's budget check before spawning (scran.js aborts the whole
 * process on out-of-memory). Terms, in bytes per non-zero unless said:
 *  - merged input + filtered copy + (ambient) replacement: 8 each (Float32 value + Uint32 index);
 *  - normalized values: 4; HVG submatrix for the PCA in JS and in WebAssembly: 2 × 8 × HVG share;
 *  - writers: h5ad (X + counts, h5wasm in-memory file and the returned bytes) ≈ 4 × 8, artifact
 *    expression chunks ≈ 2 × 8; Wilcoxon works on 2,048-gene blocks (≤ 16 × block share);
 *  - per cell: PCs (50 × 8 × 3), neighbour lists and t-SNE (90 neighbours × 16), UMAP/embeddings;
 *  - cell-cycle regression densifies the HVGs: cells × HVGs × 4 × 2;
 *  - a fixed 400 MB for Node, the WebAssembly module and code.
 * The bench (npm run bench:engine) prints measured peaks to compare with.
 */
export function estimateMemoryBytes(input: MemoryEstimateInput): number {
  const params = parseParams(input.params ?? {});
  const { cells, genes, nnz } = input;
  const hvgShare = Math.min(1, (params.numberOfHighlyVariableGenes / Math.max(1, genes)) * 2);
  const blockShare = Math.min(1, 2048 / Math.max(1, genes));
  let perNnz = 8 + 8 + 4 + 2 * 8 * hvgShare + 4 * 8 + 2 * 8 + 16 * blockShare;
  if (params.ambientRnaRemoval.enabled) perNnz += 8 * 2;
  if (params.doubletDetectionAndRemoval) perNnz += 8 * 2 * hvgShare; // simulated doublets
  let perCell = 50 * 8 * 3 + 90 * 16 + 200;
  if (params.removeCellCycleEffects) perCell += params.numberOfHighlyVariableGenes * 4 * 2;
  const perGene = 200; // names, statistics; markers rows are per cluster × gene
  const markerRows = genes * 40 * 120; // up to ~40 clusters × ~120 bytes per row object
  return Math.ceil(400 * MB + nnz * perNnz + cells * perCell + genes * perGene + markerRows);
}
