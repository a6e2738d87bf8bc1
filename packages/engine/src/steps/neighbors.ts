import type { NeighborResults } from 'scran.js';
import type { KnnLists } from '../methods/fuzzy-graph';
import { knnLists } from '../methods/knn-search';
import type { BatchStep } from './batch';
import { Step } from './step';

export const N_NEIGHBORS = 15;
/** Above this many cells scran.js's index is approximate (Annoy) — the previous search, kept for bench:engine -- tsne. */
export const EXACT_SEARCH_MAX_CELLS = 10_000;

/**
 * k-nearest-neighbour lists with scran.js NeighborResults' interface (serialize(),
 * numberOfCells(), free()), so that the graph and the UMAP steps read them as before.
 */
export class KnnResult implements NeighborResults {
  constructor(
    readonly nCells: number,
    readonly k: number,
    readonly indices: Int32Array,
    readonly distances: Float64Array,
  ) {}

  numberOfCells(): number {
    return this.nCells;
  }

  /** scran.js layout: `runs` (neighbours per cell), then indices and distances cell after cell. */
  serialize(): KnnLists {
    return {
      runs: new Int32Array(this.nCells).fill(this.k),
      indices: this.indices,
      distances: this.distances,
    };
  }

  /** The first k of each cell's lists (the exact k nearest when this holds the exact k' ≥ k). */
  first(k: number): KnnResult {
    if (k > this.k) throw new Error(`knn: asked for the first ${k} of ${this.k} neighbours`);
    if (k === this.k) return this;
    const indices = new Int32Array(this.nCells * k);
    const distances = new Float64Array(this.nCells * k);
    for (let i = 0; i < this.nCells; i++) {
      indices.set(this.indices.subarray(i * this.k, i * this.k + k), i * k);
      distances.set(this.distances.subarray(i * this.k, i * this.k + k), i * k);
    }
    return new KnnResult(this.nCells, k, indices, distances);
  }

  free(): void {}
}

export interface NeighborsResult {
  /** The min(15, n − 1) exact nearest neighbours of every cell, shared by the SNN graph, UMAP and 3D UMAP. */
  nn: KnnResult;
  /**
   * The exact k nearest neighbours of every cell (k ≤ n − 1): cut from `nn` up to its k, searched
   * again above (not kept) — for t-SNE's 90 neighbours.
   */
  knn(k: number): Promise<KnnResult>;
}

/**
 * The exact nearest neighbours of every cell in the reduced representation: our inverted-file
 * search with exactness bounds (methods/knn-search.ts knnLists, on both cores; was scran.js's
 * Annoy index above 10k cells — 30 CPU s at 100k cells against ~3–5 now; above ~102k cells the
 * scan is capped at 16 lists per cell, recall ≥ 0.998 of the exact lists). The 15-nearest lists
 * serve the clustering graph and both UMAPs; larger k are searched on demand (`knn`).
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
    const { embedding, dims } = this.batch.value;
    const nCells = embedding.length / dims;
    const coords = Float32Array.from(embedding);
    const { indices, distances } = await knnLists(coords, nCells, dims, Math.min(N_NEIGHBORS, nCells - 1));
    return this.withSearch(new KnnResult(nCells, Math.min(N_NEIGHBORS, nCells - 1), indices, distances));
  }

  /** The 15-nearest lists as plain data (the wider search is redone on demand after a restore). */
  override snapshot(): unknown {
    const { nn } = this.value;
    return { nCells: nn.nCells, k: nn.k, indices: nn.indices, distances: nn.distances };
  }

  protected override restoreResult(data: unknown): NeighborsResult {
    const d = data as { nCells: number; k: number; indices: Int32Array; distances: Float64Array };
    return this.withSearch(new KnnResult(d.nCells, d.k, d.indices, d.distances));
  }

  private withSearch(nn: KnnResult): NeighborsResult {
    const { embedding, dims } = this.batch.value;
    const nCells = nn.nCells;
    return {
      nn,
      // a wider search is not kept: the t-SNE's 90-neighbour lists (~110 MB at 100k cells) are
      // freed once its affinities are computed (issue 14's peak memory)
      async knn(k: number): Promise<KnnResult> {
        if (k <= nn.k) return nn.first(k);
        const { indices, distances } = await knnLists(Float32Array.from(embedding), nCells, dims, k);
        return new KnnResult(nCells, k, indices, distances);
      },
    };
  }
}
