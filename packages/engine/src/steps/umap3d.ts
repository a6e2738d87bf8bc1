import { fuzzyConnectivities } from '../methods/fuzzy-graph';
import { UmapLayoutJob } from '../stats/umap-layout';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapEpochs, umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsStep } from './neighbors';
import { Step, type StepProgress } from './step';

/**
 * 3D UMAP for the explorer's umap3D view. scran.js only lays out 2D, so the layout is our own
 * typed-array UMAP (stats/umap-layout) over the fuzzy graph of the same 15 nearest neighbours
 * the clustering uses (methods/fuzzy-graph),
 * with the same min_dist rule and a seeded generator.
 *
 * The layout runs in a worker thread. The runner calls `start(params)` when the 2D UMAP step
 * starts (scran.js, one thread), so the two share the two cores; this step's compute then joins
 * the running layout (same parameters and upstream results) or, without a start, starts and joins
 * it itself. The coordinates are the same either way, and the same as on one thread.
 */
export class Umap3dStep extends Step<{ seed: number }, Embedding> {
  readonly name = 'umap3D' as const;
  private pending: { key: string; job: UmapLayoutJob } | undefined;
  /** Parameters of the current result (as Step keys them). */
  private resultKey: string | undefined;

  constructor(
    private readonly batch: BatchStep,
    private readonly neighbors: NeighborsStep,
  ) {
    super([batch, neighbors]);
  }

  static defaults(): { seed: number } {
    return { seed: 42 };
  }

  /**
   * Starts the layout in a worker thread ahead of this step's compute, if that compute will
   * recompute (parameters or upstream results changed). Call after the upstream steps ran.
   */
  start(params: { seed: number }): void {
    void this.cancel();
    const key = JSON.stringify(params);
    // as Step.compute decides whether to recompute
    const stale = this.result === undefined || key !== this.resultKey || this.upstream.some((u) => u.changed);
    if (stale) this.pending = { key, job: this.layoutJob(params) };
  }

  /** Stops a layout started ahead and not joined (e.g. a step before this one failed). */
  async cancel(): Promise<void> {
    const job = this.pending?.job;
    this.pending = undefined;
    await job?.cancel();
  }

  protected async run(params: { seed: number }, progress: StepProgress): Promise<Embedding> {
    const key = JSON.stringify(params);
    // upstream results are final by now: a layout started ahead with these parameters is current
    const job = this.pending?.key === key ? this.pending.job : this.layoutJob(params);
    this.pending = undefined;
    job.onProgress((f) => progress(f, 'Computing 3D UMAP'));
    const values = await job.result();
    this.resultKey = key;
    return { dims: 3, values };
  }

  override free(): void {
    void this.cancel();
    this.resultKey = undefined;
    super.free();
  }

  private layoutJob(params: { seed: number }): UmapLayoutJob {
    const { nn } = this.neighbors.value;
    const n = nn.numberOfCells();
    // scanpy/umap-learn n_neighbors = 15 counts the cell itself: the cell + its 14 nearest.
    const graph = fuzzyConnectivities(nn.serialize(), { nNeighbors: Math.min(N_NEIGHBORS, n) });
    return new UmapLayoutJob(graph, {
      dims: 3,
      minDist: umapMinDist(n),
      epochs: umapEpochs(n),
      seed: params.seed,
    });
  }
}
