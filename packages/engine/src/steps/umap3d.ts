import { UMAP } from 'umap-js';
import type { NeighborResults } from 'scran.js';
import { Random } from '../methods/random';
import { freeAll, initScran } from '../scran';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsStep } from './neighbors';
import { Step } from './step';

/** Epochs: umap-learn's 500 up to 10k cells, 200 above (pure-JS optimizer cost). */
export function umap3dEpochs(nCells: number): number {
  return nCells <= 10_000 ? 500 : 200;
}

/**
 * umap-js keeps its fuzzy graph in Map-based sparse matrices: ~3.3 GB resident at 20k cells in
 * the benchmark. Above this many cells the 3D UMAP is skipped (result `undefined`; the explorer
 * then offers the 2D embeddings only) so that large analyses stay within the memory budget.
 */
export const UMAP3D_MAX_CELLS = 15_000;

/**
 * 3D UMAP for the explorer's umap3D view. scran.js only lays out 2D, so this uses umap-js (MIT)
 * with the same 15-nearest-neighbour graph (from scran.js, each cell its own first neighbour as
 * umap-learn counts it), the same min_dist rule, and a seeded random generator.
 */
export class Umap3dStep extends Step<{ seed: number }, Embedding | null> {
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

  protected async run(params: { seed: number }, progress: (f: number, m: string) => void): Promise<Embedding | null> {
    const scran = await initScran();
    const { embedding, dims } = this.batch.value;
    const n = embedding.length / dims;
    if (n > UMAP3D_MAX_CELLS) return null;
    let nn: NeighborResults | undefined;
    let knnIndices: number[][];
    let knnDistances: number[][];
    try {
      nn = scran.findNearestNeighbors(this.neighbors.value, Math.min(N_NEIGHBORS - 1, n - 1));
      const { runs, indices, distances } = nn.serialize();
      knnIndices = [];
      knnDistances = [];
      let p = 0;
      for (let c = 0; c < n; c++) {
        const idx = [c];
        const dist = [0];
        for (let j = 0; j < runs[c]; j++, p++) {
          idx.push(indices[p]);
          dist.push(distances[p]);
        }
        knnIndices.push(idx);
        knnDistances.push(dist);
      }
    } finally {
      freeAll(nn);
    }
    const rng = new Random(params.seed);
    const umap = new UMAP({
      nComponents: 3,
      nNeighbors: Math.min(N_NEIGHBORS, n),
      minDist: umapMinDist(n),
      nEpochs: umap3dEpochs(n),
      random: () => rng.uniform(),
    });
    umap.setPrecomputedKNN(knnIndices, knnDistances);
    const rows = Array.from({ length: n }, (_, c) => Array.from(embedding.subarray(c * dims, (c + 1) * dims)));
    const epochs = umap.initializeFit(rows);
    for (let e = 0; e < epochs; e++) {
      umap.step();
      if (e % 20 === 0) progress(e / epochs, 'Computing 3D UMAP');
    }
    const out = new Float32Array(n * 3);
    umap.getEmbedding().forEach((v, c) => out.set(v, c * 3));
    return { dims: 3, values: out };
  }
}
