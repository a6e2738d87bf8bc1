import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { NeighborResults } from 'scran.js';
import { fuzzyConnectivities } from '../methods/fuzzy-graph';
import { communityRestarts } from '../methods/community-restarts';
import { medoidPartition } from '../methods/medoid-partition';
import type { NeighborsStep } from './neighbors';
import { Step } from './step';

export type ClusterParams = Pick<AnalysisParams, 'clusterResolution' | 'algorithm'>;

/** Neighbours per cell in the connectivity graph, the cell itself included (docs/methods/pipeline.md#neighbours-and-clustering: scanpy n_neighbors = 15). */
export const GRAPH_NEIGHBORS = 15;
/** Seed of the first restart's node order (scanpy tl.louvain / tl.leiden random_state = 0), whatever the analysis seed. */
export const CLUSTER_SEED = 0;
/**
 * Runs of the community detection, seeds CLUSTER_SEED, CLUSTER_SEED + 1, …; the result is their
 * medoid (methods/medoid-partition.ts). One run left pbmc3k's clusters hinging on the analysis seed
 * (Scrublet's simulated doublets and the PCA's start move the graph slightly; 10 seeds, every
 * default with Louvain: ARI vs the tutorial labels median 0.837, pairwise between seeds 0.787).
 * 20 Leiden restarts still let a graph with one cell more or less pick another split of the
 * naive / memory CD4 T continuum (pbmc3k seeds 1 and 2: 0.792 / 0.900, pairwise 0.829); with 50
 * the medoid no longer depends on it (0.903 / 0.904, pairwise 0.992): docs/benchmarks/stability.md.
 */
export const CLUSTER_RESTARTS = 50;
/** Cells up to which all CLUSTER_RESTARTS runs are made (see clusterRestarts). */
export const CLUSTER_RESTARTS_FULL_CELLS = 50_000;
/** The fewest restarts at any size (see clusterRestarts). */
export const CLUSTER_MIN_RESTARTS = 5;

/**
 * Restarts for `cells` cells: CLUSTER_RESTARTS up to CLUSTER_RESTARTS_FULL_CELLS, then fewer so
 * that the restarts' total work stays that of 50 runs on 50,000 cells (2.5M cell-runs), never
 * fewer than CLUSTER_MIN_RESTARTS — 100k cells: 25, 200k: 12, ≥ 500k: 5. The runs' cost grows
 * with the cells (a Leiden run and the medoid's pairwise ARIs are linear in them) while the seed
 * dependence they remove is that of a graph whose split moves with a few cells (pbmc3k's CD4 T
 * continuum); at 1M cells 50 runs would take most of the issue 33 budget for the whole job
 * (docs/engine-scaling.md). Deterministic: the restarts' seeds stay CLUSTER_SEED, + 1, ….
 */
export function clusterRestarts(cells: number): number {
  if (cells <= CLUSTER_RESTARTS_FULL_CELLS) return CLUSTER_RESTARTS;
  return Math.max(CLUSTER_MIN_RESTARTS, Math.floor((CLUSTER_RESTARTS * CLUSTER_RESTARTS_FULL_CELLS) / cells));
}
/** Leiden passes per restart, each from the previous partition (stops earlier when one changes nothing; scanpy: 2). */
export const LEIDEN_ITERATIONS = 5;

export interface ClusterResult {
  /** Cluster code per cell, 0-based, numbered by decreasing size. */
  codes: Int32Array;
  /** Display labels: "1", "2", … (docs/methods/pipeline.md#neighbours-and-clustering: renumbered from 1, as strings). */
  labels: string[];
}

/** Renumbers raw memberships by decreasing cluster size (ties by first appearance). */
export function renumberBySize(raw: ArrayLike<number>): ClusterResult {
  const size = new Map<number, number>();
  const first = new Map<number, number>();
  for (let i = 0; i < raw.length; i++) {
    size.set(raw[i], (size.get(raw[i]) ?? 0) + 1);
    if (!first.has(raw[i])) first.set(raw[i], i);
  }
  const order = [...size.keys()].sort(
    (a, b) => (size.get(b) ?? 0) - (size.get(a) ?? 0) || (first.get(a) ?? 0) - (first.get(b) ?? 0),
  );
  const code = new Map(order.map((k, i) => [k, i]));
  return { codes: Int32Array.from(raw, (r) => code.get(r) ?? 0), labels: order.map((_, i) => String(i + 1)) };
}

/**
 * scanpy's clustering of a kNN result: the UMAP fuzzy-simplicial-set connectivities over the cell
 * and its 14 nearest neighbours (`pp.neighbors(n_neighbors=15)`), then Louvain (`tl.louvain`) or
 * Leiden (`tl.leiden`) with the RB configuration quality at `resolution` (methods/louvain.ts,
 * methods/leiden.ts — our own code: scran.js cannot cluster a custom graph), run `restarts` times
 * with successive seeds (`restarts`, default clusterRestarts of the cells); the medoid of the runs
 * (docs/methods/clustering.md). The restarts run on `threads` threads (default engineThreads():
 * methods/community-restarts.ts), the same memberships whatever the count. Raw memberships.
 */
export async function clusterNeighbors(
  nn: NeighborResults,
  opts: { resolution: number; algorithm: AnalysisParams['algorithm']; restarts?: number; threads?: number },
): Promise<Int32Array> {
  // no local holds the graph: a shared copy for the workers replaces it (methods/community-restarts.ts)
  const runs = await communityRestarts(fuzzyConnectivities(nn.serialize(), { nNeighbors: GRAPH_NEIGHBORS }), {
    algorithm: opts.algorithm,
    resolution: opts.resolution,
    iterations: LEIDEN_ITERATIONS,
    seed: CLUSTER_SEED,
    restarts: opts.restarts ?? clusterRestarts(nn.numberOfCells()),
    ...(opts.threads === undefined ? {} : { threads: opts.threads }),
  });
  // a copy: the partition alone, not the buffer holding every restart
  return runs[medoidPartition(runs)].slice();
}

/** Clusters of the NeighborsStep's 15-nearest-neighbour result (see clusterNeighbors), numbered by size. */
export class ClustersStep extends Step<ClusterParams, ClusterResult> {
  readonly name = 'clusters' as const;

  constructor(private readonly neighbors: NeighborsStep) {
    super([neighbors]);
  }

  static defaults(): ClusterParams {
    return pickDefaults('clusterResolution', 'algorithm');
  }

  protected async run(params: ClusterParams): Promise<ClusterResult> {
    return renumberBySize(
      await clusterNeighbors(this.neighbors.value.nn, {
        resolution: params.clusterResolution,
        algorithm: params.algorithm,
      }),
    );
  }
}
