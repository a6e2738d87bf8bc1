import type { NeighborResults } from 'scran.js';
import { freeAll, initScran } from '../scran';
import type { NeighborsStep } from './neighbors';
import { N_NEIGHBORS } from './neighbors';
import { Step } from './step';

/** Row-major nCells × dims coordinates. */
export interface Embedding {
  dims: number;
  values: Float32Array;
}

/** UMAP min_dist by cell count (METHODS §1.7; exactly 1000 cells → 0.1, as the reference does). */
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

function interleave(x: Float64Array, y: Float64Array): Float32Array {
  const out = new Float32Array(x.length * 2);
  for (let i = 0; i < x.length; i++) {
    out[2 * i] = x[i];
    out[2 * i + 1] = y[i];
  }
  return out;
}

/** 2D UMAP (scran.js / umappp) over the 15-nearest-neighbour graph; epochs as umap-learn (500 up to 10k cells, 200 above). */
export class UmapStep extends Step<Record<string, never>, Embedding> {
  readonly name = 'umap' as const;

  constructor(private readonly neighbors: NeighborsStep) {
    super([neighbors]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  protected async run(): Promise<Embedding> {
    const scran = await initScran();
    const { nn } = this.neighbors.value;
    const n = nn.numberOfCells();
    const r = scran.runUmap(nn, { neighbors: N_NEIGHBORS, minDist: umapMinDist(n), epochs: umapEpochs(n) });
    return { dims: 2, values: interleave(r.x, r.y) };
  }
}

export const TSNE_PERPLEXITY = 30;
/** Above this many cells t-SNE runs TSNE_LARGE_ITERATIONS instead of qdtsne's default 1000. */
export const TSNE_LARGE_CELLS = 50_000;
export const TSNE_LARGE_ITERATIONS = 500;

/** t-SNE iterations: qdtsne's default 1000, capped at 500 above 50k cells (time grows ~linearly with both). */
export function tsneIterations(nCells: number): number {
  return nCells > TSNE_LARGE_CELLS ? TSNE_LARGE_ITERATIONS : 1000;
}

/**
 * 2D t-SNE (scran.js / qdtsne, Barnes–Hut) of all cells with perplexity 30; 1000 iterations, 500
 * above 50k cells (the embedding is mostly settled after the 250 early-exaggeration iterations
 * plus 250 more; the cap keeps 100k cells within the time budget).
 */
export class TsneStep extends Step<Record<string, never>, Embedding> {
  readonly name = 'tsne' as const;

  constructor(private readonly neighbors: NeighborsStep) {
    super([neighbors]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  protected async run(): Promise<Embedding> {
    const scran = await initScran();
    let nn: NeighborResults | undefined;
    try {
      const { index } = this.neighbors.value;
      const n = index.numberOfCells();
      const perplexity = Math.max(1, Math.min(TSNE_PERPLEXITY, Math.floor((n - 1) / 3)));
      nn = scran.findNearestNeighbors(index, Math.min(n - 1, scran.perplexityToNeighbors(perplexity)));
      const r = scran.runTsne(nn, { perplexity, maxIterations: tsneIterations(n) });
      return { dims: 2, values: interleave(r.x, r.y) };
    } finally {
      freeAll(nn);
    }
  }
}
