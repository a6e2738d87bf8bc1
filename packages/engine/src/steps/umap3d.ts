import type { NeighborResults } from 'scran.js';
import { freeAll, initScran } from '../scran';
import { umapLayout } from '../stats/umap-layout';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsStep } from './neighbors';
import { Step } from './step';

/** Epochs: umap-learn's 500 up to 10k cells, 200 above. */
export function umap3dEpochs(nCells: number): number {
  return nCells <= 10_000 ? 500 : 200;
}

/**
 * 3D UMAP for the explorer's umap3D view. scran.js only lays out 2D, so the layout is our own
 * typed-array UMAP (stats/umap-layout) over the same 15-nearest-neighbour graph from scran.js,
 * with the same min_dist rule and a seeded generator.
 */
export class Umap3dStep extends Step<{ seed: number }, Embedding> {
  readonly name = 'umap3D' as const;

  constructor(
    private readonly batch: BatchStep,
    private readonly neighbors: NeighborsStep,
  ) {
    super([batch, neighbors]);
  }

  static defaults(): { seed: number } {
    return { seed: 42 };
  }

  protected async run(params: { seed: number }): Promise<Embedding> {
    const scran = await initScran();
    const n = this.neighbors.value.numberOfCells();
    const k = Math.min(N_NEIGHBORS - 1, n - 1);
    let nn: NeighborResults | undefined;
    let indices: Int32Array;
    let distances: Float64Array;
    try {
      nn = scran.findNearestNeighbors(this.neighbors.value, k);
      const s = nn.serialize();
      indices = s.indices;
      distances = s.distances;
    } finally {
      freeAll(nn);
    }
    const values = umapLayout(
      { n, k, indices, distances },
      { dims: 3, minDist: umapMinDist(n), epochs: umap3dEpochs(n), seed: params.seed },
    );
    return { dims: 3, values };
  }
}
