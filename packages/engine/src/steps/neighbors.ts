import type { NeighborIndex } from 'scran.js';
import { initScran } from '../scran';
import type { BatchStep } from './batch';
import { Step } from './step';

export const N_NEIGHBORS = 15;
/** Up to this many cells the search is exact; above, scran.js's Annoy index (approximate). */
export const EXACT_SEARCH_MAX_CELLS = 10_000;

/** Nearest-neighbour search index over the reduced representation (scran.js: exact, or Annoy above 10k cells). */
export class NeighborsStep extends Step<Record<string, never>, NeighborIndex> {
  readonly name = 'neighbors' as const;

  constructor(private readonly batch: BatchStep) {
    super([batch]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  protected async run(): Promise<NeighborIndex> {
    const scran = await initScran();
    const { embedding, dims } = this.batch.value;
    const nCells = embedding.length / dims;
    return scran.buildNeighborSearchIndex(embedding, {
      numberOfDims: dims,
      numberOfCells: nCells,
      approximate: nCells > EXACT_SEARCH_MAX_CELLS,
    });
  }

  protected override release(): void {
    this.result?.free();
  }
}
