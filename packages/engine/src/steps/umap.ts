import { pickDefaults } from '@cellcloud/contracts/analysis-params';
import { fuzzyConnectivities, type WeightedGraph } from '../methods/fuzzy-graph';
import { UmapLayoutJob } from '../stats/umap-layout';
import type { BatchStep } from './batch';
import type { Embedding } from './embeddings';
import { umapEpochs, umapMinDist } from './embeddings';
import { N_NEIGHBORS, type NeighborsResult, type NeighborsStep } from './neighbors';
import { Step, type StepProgress } from './step';

/**
 * A UMAP layout step (2D `umap`, 3D `umap3D`): our typed-array UMAP (stats/umap-layout, umap-learn's
 * epochs, negative sampling and a/b curve) over the fuzzy graph of the same 15 nearest neighbours
 * the clustering uses (methods/fuzzy-graph), min_dist by cell count, a seeded generator.
 *
 * The layout runs in a worker thread (above UMAP_SEQUENTIAL_MAX_NODES nodes, in engineThreads()
 * worker threads sharing the partitioned SGD, stats/umap-sgd). The runner calls `start(params)` for both UMAP steps as soon
 * as the neighbour graph exists (before the clustering), so the two layouts share the two cores
 * with clustering, markers and t-SNE (main thread); both use one fuzzy graph (`umapGraph`); this step's
 * compute then joins the running layout (same parameters and upstream results) or, without a
 * start, starts and joins it itself. The coordinates are the same either way, and the same as on
 * one thread (deterministic for a seed, whatever the thread count).
 */
/**
 * The fuzzy graph of a neighbour result, built once for the 2D and the 3D layout (keyed by the
 * neighbours step's result object: a recomputed search gives a new object and a new graph).
 */
const graphs = new WeakMap<NeighborsResult, WeightedGraph>();

function umapGraph(neighbors: NeighborsResult): WeightedGraph {
  let graph = graphs.get(neighbors);
  if (!graph) {
    const nn = neighbors.nn;
    // scanpy/umap-learn n_neighbors = 15 counts the cell itself: the cell + its 14 nearest.
    graph = fuzzyConnectivities(nn.serialize(), { nNeighbors: Math.min(N_NEIGHBORS, nn.numberOfCells()) });
    graphs.set(neighbors, graph);
  }
  return graph;
}

abstract class UmapLayoutStep extends Step<{ seed: number }, Embedding> {
  protected abstract readonly dims: 2 | 3;
  protected abstract readonly message: string;
  private pending: { key: string; job: UmapLayoutJob } | undefined;
  /** Parameters of the current result (as Step keys them). */
  private resultKey: string | undefined;

  constructor(
    batch: BatchStep,
    private readonly neighbors: NeighborsStep,
  ) {
    super([batch, neighbors]);
  }

  static defaults(): { seed: number } {
    return pickDefaults('seed');
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

  /** True while a layout started ahead (`start`) has not been joined or cancelled. */
  get running(): boolean {
    return this.pending !== undefined;
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
    job.onProgress((f) => progress(f, this.message));
    const values = await job.result();
    this.resultKey = key;
    return { dims: this.dims, values };
  }

  override restore(params: { seed: number }, data: unknown): void {
    void this.cancel();
    super.restore(params, data);
    this.resultKey = JSON.stringify(params);
  }

  override free(): void {
    void this.cancel();
    this.resultKey = undefined;
    super.free();
  }

  private layoutJob(params: { seed: number }): UmapLayoutJob {
    const graph = umapGraph(this.neighbors.value);
    const n = graph.nNodes;
    return new UmapLayoutJob(graph, {
      dims: this.dims,
      minDist: umapMinDist(n),
      epochs: umapEpochs(n),
      seed: params.seed,
    });
  }
}

/** 2D UMAP (the explorer's default view). */
export class UmapStep extends UmapLayoutStep {
  readonly name = 'umap' as const;
  protected readonly dims = 2;
  protected readonly message = 'Computing UMAP';
}

/** 3D UMAP for the explorer's umap3D view. */
export class Umap3dStep extends UmapLayoutStep {
  readonly name = 'umap3D' as const;
  protected readonly dims = 3;
  protected readonly message = 'Computing 3D UMAP';
}
