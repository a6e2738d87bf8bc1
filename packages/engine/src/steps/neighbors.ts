import type { NeighborIndex, NeighborResults } from 'scran.js';
import { freeAll, initScran } from '../scran';
import type { BatchStep } from './batch';
import { Step } from './step';

export const N_NEIGHBORS = 15;
/** Up to this many cells the search is exact; above, scran.js's Annoy index (approximate). */
export const EXACT_SEARCH_MAX_CELLS = 10_000;

export interface NeighborsResult {
  /** Search index over the reduced representation (t-SNE searches its own, larger k on it). */
  index: NeighborIndex;
  /** The min(15, n − 1) nearest neighbours of every cell, searched once and shared by the SNN graph, UMAP and 3D UMAP. */
  nn: NeighborResults;
}

/**
 * Nearest-neighbour search index over the reduced representation (scran.js: exact, or Annoy above
 * 10k cells) and the 15-nearest-neighbour result that clustering and both UMAPs reuse.
 */
export class NeighborsStep extends Step<Record<string, never>, NeighborsResult> {
  readonly name = 'neighbors' as const;

  constructor(private readonly batch: BatchStep) {
    super([batch]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  protected async run(): Promise<NeighborsResult> {
    const scran = await initScran();
    const { embedding, dims } = this.batch.value;
    const nCells = embedding.length / dims;
    const index = scran.buildNeighborSearchIndex(embedding, {
      numberOfDims: dims,
      numberOfCells: nCells,
      approximate: nCells > EXACT_SEARCH_MAX_CELLS,
    });
    try {
      return { index, nn: scran.findNearestNeighbors(index, Math.min(N_NEIGHBORS, nCells - 1)) };
    } catch (e) {
      index.free();
      throw e;
    }
  }

  protected override release(): void {
    freeAll(this.result?.nn, this.result?.index);
  }
}
