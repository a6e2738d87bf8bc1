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

function interleave(x: Float64Array, y: Float64Array): Float32Array {
  const out = new Float32Array(x.length * 2);
  for (let i = 0; i < x.length; i++) {
    out[2 * i] = x[i];
    out[2 * i + 1] = y[i];
  }
  return out;
}

/** 2D UMAP (scran.js / umappp) over the 15-nearest-neighbour graph. */
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
    let nn: NeighborResults | undefined;
    try {
      nn = scran.findNearestNeighbors(this.neighbors.value, N_NEIGHBORS);
      const r = scran.runUmap(nn, { neighbors: N_NEIGHBORS, minDist: umapMinDist(nn.numberOfCells()) });
      return { dims: 2, values: interleave(r.x, r.y) };
    } finally {
      freeAll(nn);
    }
  }
}

export const TSNE_PERPLEXITY = 30;

/** 2D t-SNE (scran.js / qdtsne, Barnes–Hut) with perplexity 30. */
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
      const n = this.neighbors.value.numberOfCells();
      const perplexity = Math.max(1, Math.min(TSNE_PERPLEXITY, Math.floor((n - 1) / 3)));
      nn = scran.findNearestNeighbors(this.neighbors.value, Math.min(n - 1, scran.perplexityToNeighbors(perplexity)));
      const r = scran.runTsne(nn, { perplexity });
      return { dims: 2, values: interleave(r.x, r.y) };
    } finally {
      freeAll(nn);
    }
  }
}
