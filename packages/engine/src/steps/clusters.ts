import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { NeighborResults } from 'scran.js';
import { fuzzyConnectivities } from '../methods/fuzzy-graph';
import { leiden } from '../methods/leiden';
import { louvain } from '../methods/louvain';
import type { NeighborsStep } from './neighbors';
import { Step } from './step';

export type ClusterParams = Pick<AnalysisParams, 'clusterResolution' | 'algorithm'>;

/** Neighbours per cell in the connectivity graph, the cell itself included (docs/methods/pipeline.md#neighbours-and-clustering: scanpy n_neighbors = 15). */
export const GRAPH_NEIGHBORS = 15;
/** Seed of the community detection's node order: scanpy tl.louvain / tl.leiden random_state = 0, whatever the analysis seed. */
export const CLUSTER_SEED = 0;

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
 * methods/leiden.ts — our own code: scran.js cannot cluster a custom graph). Raw memberships.
 */
export function clusterNeighbors(
  nn: NeighborResults,
  opts: { resolution: number; algorithm: AnalysisParams['algorithm'] },
): Int32Array {
  const graph = fuzzyConnectivities(nn.serialize(), { nNeighbors: GRAPH_NEIGHBORS });
  const options = { resolution: opts.resolution, seed: CLUSTER_SEED };
  return opts.algorithm === 'leiden' ? leiden(graph, options) : louvain(graph, options);
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

  protected run(params: ClusterParams): ClusterResult {
    return renumberBySize(
      clusterNeighbors(this.neighbors.value.nn, {
        resolution: params.clusterResolution,
        algorithm: params.algorithm,
      }),
    );
  }
}
