import type { WeightedGraph } from '@cellcloud/engine/methods/fuzzy-graph';
import { leiden } from '@cellcloud/engine/methods/leiden';
import { louvain } from '@cellcloud/engine/methods/louvain';
import { holmAdjust, pnormUpper } from '../../_shared/engine/trajectory/stats';

/**
 * Monocle 3's cluster_cells.R on a 2D embedding: unweighted k-NN graph (each listed neighbour one
 * edge, mutual pairs two), Leiden, then compute_partitions (significant links between clusters,
 * Holm-adjusted normal test, q 0.05; partitions = connected components of the cluster graph).
 * Monocle calls leidenbase with the CPM quality and resolution 1e-4; our Leiden maximises the RB
 * configuration quality, so the CPM resolution γ is mapped to γ·n²/(2m) (equal on a graph of equal
 * degrees).
 */

export interface CellClusters {
  clusters: Int32Array;
  nClusters: number;
  partitions: Int32Array;
  nPartitions: number;
}

/** kNN lists (self excluded), row-major n × k. */
export interface Knn {
  k: number;
  indices: Int32Array;
  distances: Float64Array;
}

/** The unweighted k-NN multigraph of monocle's clustering as a weighted CSR graph (weight = number of directions). */
export function knnMultigraph(knn: Knn, n: number, k: number): WeightedGraph {
  const maps: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < k; a++) {
      const j = knn.indices[i * knn.k + a]!;
      if (j === i) continue;
      maps[i]!.set(j, (maps[i]!.get(j) ?? 0) + 1);
      maps[j]!.set(i, (maps[j]!.get(i) ?? 0) + 1);
    }
  }
  const indptr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) indptr[i + 1] = indptr[i]! + maps[i]!.size;
  const indices = new Int32Array(indptr[n]!);
  const weights = new Float64Array(indptr[n]!);
  for (let i = 0; i < n; i++) {
    let p = indptr[i]!;
    for (const [j, w] of [...maps[i]!].sort((a, b) => a[0] - b[0])) {
      indices[p] = j;
      weights[p++] = w;
    }
  }
  return { nNodes: n, indptr, indices, weights };
}

/** CPM resolution → RB-configuration resolution on this graph (γ·n²/2m). */
export function cpmToRb(g: WeightedGraph, cpm: number): number {
  let twoM = 0;
  for (let p = 0; p < g.weights.length; p++) twoM += g.weights[p]!;
  return twoM > 0 ? (cpm * g.nNodes * g.nNodes) / twoM : cpm;
}

/** compute_partitions: partition (connected component of the significant cluster graph) of every cluster. */
export function computePartitions(
  g: WeightedGraph,
  membership: Int32Array,
  nClusters: number,
  qval = 0.05,
): Int32Array {
  const links = new Float64Array(nClusters * nClusters);
  for (let i = 0; i < g.nNodes; i++) {
    for (let p = g.indptr[i]!; p < g.indptr[i + 1]!; p++) {
      const j = g.indices[p]!;
      const a = membership[i]!;
      const b = membership[j]!;
      if (a !== b) links[a * nClusters + b] += g.weights[p]!;
    }
  }
  const perModule = new Float64Array(nClusters);
  let total = 0;
  for (let a = 0; a < nClusters; a++)
    for (let b = 0; b < nClusters; b++) perModule[a] += links[a * nClusters + b]!;
  for (let a = 0; a < nClusters; a++) total += perModule[a]!;
  const pv = new Float64Array(nClusters * nClusters).fill(1);
  if (total > 0) {
    for (let a = 0; a < nClusters; a++) {
      for (let b = 0; b < nClusters; b++) {
        const theta = (perModule[a]! / total) * (perModule[b]! / total);
        const v = (theta * (1 - theta)) / total;
        const x = links[a * nClusters + b]! / total - theta;
        pv[a * nClusters + b] = v > 0 ? pnormUpper(x / Math.sqrt(v)) : x > 0 ? 0 : 1;
      }
    }
  }
  const adj = holmAdjust(pv);
  const comp = new Int32Array(nClusters).fill(-1);
  let next = 0;
  for (let s = 0; s < nClusters; s++) {
    if (comp[s]! >= 0) continue;
    comp[s] = next;
    const q = [s];
    for (let h = 0; h < q.length; h++) {
      const a = q[h]!;
      for (let b = 0; b < nClusters; b++) {
        if (a === b || comp[b]! >= 0) continue;
        if (adj[a * nClusters + b]! <= qval || adj[b * nClusters + a]! <= qval) {
          comp[b] = next;
          q.push(b);
        }
      }
    }
    next++;
  }
  return comp;
}

export function clusterCells(
  knn: Knn,
  n: number,
  k: number,
  seed: number,
  method: 'leiden' | 'louvain' = 'leiden',
  cpmResolution = 1e-4,
): CellClusters {
  const g = knnMultigraph(knn, n, Math.min(k, knn.k));
  const resolution = cpmToRb(g, cpmResolution);
  const clusters =
    method === 'leiden' ? leiden(g, { resolution, seed, iterations: 2 }) : louvain(g, { resolution, seed });
  let nClusters = 0;
  for (const c of clusters) nClusters = Math.max(nClusters, c + 1);
  const comp = computePartitions(g, clusters, nClusters);
  const partitions = new Int32Array(n);
  for (let i = 0; i < n; i++) partitions[i] = comp[clusters[i]!]!;
  let nPartitions = 0;
  for (const p of comp) nPartitions = Math.max(nPartitions, p + 1);
  return { clusters, nClusters, partitions, nPartitions };
}
