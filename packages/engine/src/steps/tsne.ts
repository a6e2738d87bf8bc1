import { pickDefaults } from '@cellcloud/contracts/analysis-params';
import { initScran } from '../scran';
import { tsneAffinities, type TsneAffinities } from '../methods/tsne/affinities';
import { tsne, tsneAsync } from '../methods/tsne/tsne';
import { affinityRows, type AffinityRows } from '../methods/tsne/order';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import type { NeighborsStep } from './neighbors';
import { Step, type StepProgress } from './step';

export const TSNE_PERPLEXITY = 30;

/** Perplexity 30, lowered for tiny data so that 3 · perplexity neighbours exist (as openTSNE). */
export function tsnePerplexity(nCells: number): number {
  return Math.max(1, Math.min(TSNE_PERPLEXITY, Math.floor((nCells - 1) / 3)));
}

/**
 * 2D t-SNE of all cells (methods/tsne: openTSNE's FFT-accelerated interpolation and schedule —
 * 250 early-exaggeration iterations at 12, then 500; learning rate max(200, n/12)), perplexity 30
 * over the exact 90 nearest neighbours from the neighbours step's search (`knn(90)`, over the same
 * reduced representation), initialised from the leading two dimensions of that
 * representation (openTSNE's PCA initialisation) — deterministic. The affinities are kept for
 * the 3D t-SNE step.
 */
export class TsneStep extends Step<{ seed: number }, Embedding> {
  readonly name = 'tsne' as const;
  /** The perplexity-calibrated affinities of the current result (shared with the 3D step). */
  affinities: TsneAffinities | undefined;

  constructor(
    private readonly batch: BatchStep,
    private readonly neighbors: NeighborsStep,
  ) {
    super([batch, neighbors]);
  }

  static defaults(): { seed: number } {
    return pickDefaults('seed');
  }

  protected async run(params: { seed: number }, progress: StepProgress): Promise<Embedding> {
    let rows: AffinityRows | undefined = await this.affinityRows();
    // a turn of the event loop after each iteration: outputs written alongside (runAnalysis
    // whileEmbeddings) keep their deflate and file writes going on libuv's threads; the rows are
    // handed over (this frame keeps no reference: freed at the layout's first reordering)
    const values = await tsneAsync(
      () => {
        const taken = rows!;
        rows = undefined;
        return taken;
      },
      { dims: 2, seed: params.seed, init: tsneInit(this.batch, 2) },
      (done, total) => progress(done / total, 'Computing t-SNE'),
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    return { dims: 2, values };
  }

  /**
   * The affinities as compressed rows: perplexity 30 over the exact 90 nearest neighbours from the
   * neighbours step's own two-core search (no scran.js index: its Annoy build + search cost ~95 CPU
   * s at 100k cells and WebAssembly memory). The neighbour lists (~110 MB at 100k cells) are let go
   * when this returns; the edge list is kept for the 3D step only where it runs.
   */
  private async affinityRows(): Promise<AffinityRows> {
    const scran = await initScran();
    const { nn: nn15, knn } = this.neighbors.value;
    const n = nn15.numberOfCells();
    const perplexity = tsnePerplexity(n);
    const nn = await knn(Math.min(n - 1, scran.perplexityToNeighbors(perplexity)));
    const aff: TsneAffinities = tsneAffinities(nn.serialize(), perplexity);
    this.affinities = n <= TSNE3D_MAX_CELLS ? aff : undefined;
    return affinityRows(aff);
  }

  protected override release(): void {
    this.affinities = undefined;
  }

  /** The layout and the affinities the 3D step reuses. */
  override snapshot(): unknown {
    return { embedding: this.value, affinities: this.affinities };
  }

  protected override restoreResult(data: unknown): Embedding {
    const d = data as { embedding: Embedding; affinities?: TsneAffinities };
    this.affinities = d.affinities;
    return d.embedding;
  }
}

/**
 * 3D t-SNE (docs/product/entities.md#option-lists embedding kind tsne3D): the 2D step's affinities laid out in three dimensions,
 * up to TSNE3D_MAX_CELLS cells (repulsion by Barnes–Hut, methods/tsne/barnes-hut: pbmc3k 9.8 CPU s
 * against 14.6 for all pairs); null above. The FFT interpolation that makes 2D fast needs a grid of
 * (boxes · 3)³ nodes in 3D: within the time budget that grid is too coarse for a faithful layout
 * (trustworthiness ~0.7 against ~0.96); the tree's cost grows as n log n per iteration, so large
 * data get no tsne3D by default (the limit stays where the layout takes seconds, not minutes).
 */
export const TSNE3D_MAX_CELLS = 3000;

export class Tsne3dStep extends Step<{ seed: number }, Embedding | null> {
  readonly name = 'tsne3D' as const;

  constructor(
    private readonly batch: BatchStep,
    private readonly tsne2d: TsneStep,
  ) {
    super([batch, tsne2d]);
  }

  static defaults(): { seed: number } {
    return pickDefaults('seed');
  }

  protected run(params: { seed: number }, progress: StepProgress): Embedding | null {
    if (this.batch.value.embedding.length / this.batch.value.dims > TSNE3D_MAX_CELLS) return null;
    const aff = this.tsne2d.affinities;
    if (!aff)
      throw new Error('engine step tsne3D: the t-SNE affinities are not available (run the tsne step first)');
    return tsneLayout(aff, 3, this.batch, params.seed, (f) => progress(f, 'Computing 3D t-SNE'));
  }
}

/** The t-SNE layout initialised from the leading dimensions of the reduced representation. */
function tsneLayout(
  aff: TsneAffinities,
  dims: 2 | 3,
  batch: BatchStep,
  seed: number,
  progress: (fraction: number) => void,
): Embedding {
  const values = tsne(aff, { dims, seed, init: tsneInit(batch, dims) }, (done, total) =>
    progress(done / total),
  );
  return { dims, values };
}

/**
 * The leading dimensions of the reduced representation (openTSNE's PCA initialisation), if it has
 * enough, rounded to float32: the values the neighbour search reads (steps/neighbors.ts) and the
 * result stores (obsm X_pca), so a layout computed later from the stored result (the layout task,
 * packages/tasks/src/layout) starts from the same values and equals this one bit for bit.
 */
function tsneInit(batch: BatchStep, dims: number): Float64Array | undefined {
  const { embedding, dims: inDims } = batch.value;
  if (inDims < dims) return undefined;
  const n = embedding.length / inDims;
  const out = new Float64Array(n * dims);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < dims; a++) out[i * dims + a] = Math.fround(embedding[i * inDims + a]!);
  return out;
}
