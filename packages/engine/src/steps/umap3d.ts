import { fuzzyConnectivities } from '../methods/fuzzy-graph';
import { umapLayout } from '../stats/umap-layout';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapEpochs, umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsStep } from './neighbors';
import { Step } from './step';

/**
 * 3D UMAP for the explorer's umap3D view. scran.js only lays out 2D, so the layout is our own
 * typed-array UMAP (stats/umap-layout) over the fuzzy graph of the same 15 nearest neighbours
 * the clustering uses (methods/fuzzy-graph),
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

  protected run(params: { seed: number }): Embedding {
    const { nn } = this.neighbors.value;
    const n = nn.numberOfCells();
    // scanpy/umap-learn n_neighbors = 15 counts the cell itself: the cell + its 14 nearest.
    const graph = fuzzyConnectivities(nn.serialize(), { nNeighbors: Math.min(N_NEIGHBORS, n) });
    const values = umapLayout(
      graph,
      { dims: 3, minDist: umapMinDist(n), epochs: umapEpochs(n), seed: params.seed },
    );
    return { dims: 3, values };
  }
}
