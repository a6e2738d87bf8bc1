// What the embedding steps share: the coordinates type and the UMAP defaults by cell count.
/** Row-major nCells × dims coordinates. */
export interface Embedding {
  dims: number;
  values: Float32Array;
}

/** UMAP min_dist by cell count (docs/methods/pipeline.md#embeddings; exactly 1000 cells → 0.1, as the reference does). */
export function umapMinDist(nCells: number): number {
  if (nCells < 1000) return 0.5;
  if (nCells > 1000 && nCells <= 100_000) return 0.3;
  if (nCells > 100_000 && nCells <= 300_000) return 0.2;
  return 0.1;
}

/** UMAP epochs (2D and 3D): umap-learn's 500 up to 10k cells, 200 above. */
export function umapEpochs(nCells: number): number {
  return nCells <= 10_000 ? 500 : 200;
}

// The embedding steps live in steps/umap.ts (2D and 3D UMAP) and steps/tsne.ts (2D and 3D t-SNE);
// both import this module, so it imports neither (no import loop).
