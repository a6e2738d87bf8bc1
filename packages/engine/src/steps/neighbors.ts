import type { NeighborIndex } from 'scran.js';
import { initScran } from '../scran';
import type { BatchStep } from './batch';
import { Step } from './step';

export const N_NEIGHBORS = 15;

/** Nearest-neighbour search index over the reduced representation (scran.js, Annoy). */
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
    return scran.buildNeighborSearchIndex(embedding, {
      numberOfDims: dims,
      numberOfCells: embedding.length / dims,
      approximate: true,
    });
  }

  protected override release(): void {
    this.result?.free();
  }
}
