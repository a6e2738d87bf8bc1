import { umapLayout } from '../stats/umap-layout';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapEpochs, umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsStep } from './neighbors';
import { Step } from './step';

/** The first k neighbours of each cell from a serialised scran.js result (runs ≥ k per cell, nearest first). */
function firstNeighbors(
  s: { runs: Int32Array; indices: Int32Array; distances: Float64Array },
  n: number,
  k: number,
): { indices: Int32Array; distances: Float64Array } {
  const indices = new Int32Array(n * k);
  const distances = new Float64Array(n * k);
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (s.runs[i] < k) throw new Error(`engine step 'umap3D': cell ${i} has ${s.runs[i]} neighbours, needs ${k}`);
    indices.set(s.indices.subarray(at, at + k), i * k);
    distances.set(s.distances.subarray(at, at + k), i * k);
    at += s.runs[i];
  }
  return { indices, distances };
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

  protected run(params: { seed: number }): Embedding {
    const { nn } = this.neighbors.value;
    const n = nn.numberOfCells();
    const k = Math.min(N_NEIGHBORS - 1, n - 1);
    const { indices, distances } = firstNeighbors(nn.serialize(), n, k);
    const values = umapLayout(
      { n, k, indices, distances },
      { dims: 3, minDist: umapMinDist(n), epochs: umapEpochs(n), seed: params.seed },
    );
    return { dims: 3, values };
  }
}
