import type { WeightedGraph } from '../../methods/fuzzy-graph';
import { leiden } from '../../methods/leiden';
import { solveDense } from '../../methods/linalg';
import { louvain } from '../../methods/louvain';
import { addEdge, adjacency, dfs, dijkstra, holmAdjust, pnormUpper, primMst, wGraph } from './common';

/**
 * Monocle 3's graph steps on a 2D embedding (row-major n × 2), following cluster_cells.R,
 * learn_graph.R and order_cells.R (monocle3 1.3):
 *  - clusterCells: unweighted k-NN graph (each listed neighbour one edge, mutual pairs two), Leiden,
 *    then compute_partitions (significant links between clusters, Holm-adjusted normal test, q 0.05;
 *    partitions = connected components of the cluster graph). Monocle calls leidenbase with the CPM
 *    quality and resolution 1e-4; our Leiden maximises the RB configuration quality, so the CPM
 *    resolution γ is mapped to γ·n²/(2m) (equal on a graph of equal degrees).
 *  - learnGraph: per partition, ncenter = round(clusters · 15 · log10(cells)), k-means from evenly
 *    spaced cells, the densest cell of each k-means cluster (density exp(−mean 25-NN distance)) as
 *    the initial centre, SimplePPT (calc_principal_graph: MST on the centres, soft assignment σ = 0.01,
 *    centres from (2L + γ diag(ΣP)) C = γ X P with γ = 0.5, 10 iterations, eps 1e-5), then prune_tree
 *    (side branches shorter than 10 nodes). Loop closure (close_loop) is not done.
 *  - projection of every cell on the nearest edge of its closest node and the cell-wise graph of
 *    project2MST (cells chained along each edge from its source node, the principal edges), and
 *    order_cells' geodesic pseudotime from the cells nearest to the root nodes.
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

export interface PrincipalGraph {
  /** Node coordinates, row-major nNodes × 2. */
  Y: Float64Array;
  nNodes: number;
  edges: [number, number][];
  partitionOfNode: Int32Array;
  /** Closest principal node of every cell. */
  closest: Int32Array;
}

const sq = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number => {
  const dx = a[2 * i]! - b[2 * j]!;
  const dy = a[2 * i + 1]! - b[2 * j + 1]!;
  return dx * dx + dy * dy;
};

/** SimplePPT (monocle3 calc_principal_graph). X n × 2, C0 K × 2 (row-major). */
export function calcPrincipalGraph(
  X: Float64Array,
  n: number,
  C0: Float64Array,
  K: number,
  opts: { maxiter?: number; eps?: number; gamma?: number; sigma?: number } = {},
): { C: Float64Array; edges: [number, number][] } {
  const { maxiter = 10, eps = 1e-5, gamma = 0.5, sigma = 0.01 } = opts;
  let C: Float64Array = Float64Array.from(C0);
  let edges: [number, number][] = [];
  let prev = NaN;
  const P = new Float64Array(K);
  for (let iter = 0; iter < maxiter; iter++) {
    edges = primMst(K, (i, j) => sq(C, i, C, j));
    let objW = 0;
    for (const [a, b] of edges) objW += 2 * sq(C, a, C, b);
    // soft assignment + centres' right-hand side in one pass
    const colP = new Float64Array(K);
    const B = new Float64Array(K * 2);
    let objP = 0;
    for (let i = 0; i < n; i++) {
      let min = Infinity;
      for (let c = 0; c < K; c++) {
        P[c] = sq(X, i, C, c);
        if (P[c]! < min) min = P[c]!;
      }
      let s = 0;
      for (let c = 0; c < K; c++) {
        P[c] = Math.exp(-(P[c]! - min) / sigma);
        s += P[c]!;
      }
      objP += -sigma * Math.log(s) + min;
      for (let c = 0; c < K; c++) {
        const pc = P[c]! / s;
        if (pc < 1e-300) continue;
        colP[c] += pc;
        B[2 * c] += gamma * pc * X[2 * i]!;
        B[2 * c + 1] += gamma * pc * X[2 * i + 1]!;
      }
    }
    const obj = objW + gamma * objP;
    if (iter > 0 && Math.abs(prev - obj) / Math.abs(prev) < eps) break;
    prev = obj;
    const Q = new Float64Array(K * K);
    for (const [a, b] of edges) {
      Q[a * K + a] += 2;
      Q[b * K + b] += 2;
      Q[a * K + b] -= 2;
      Q[b * K + a] -= 2;
    }
    for (let c = 0; c < K; c++) Q[c * K + c] += gamma * colP[c]! + 1e-12;
    C = solveDense(Q, B, K, 2);
  }
  return { C, edges };
}

/** prune_tree without loop closure: drops side branches whose longest path has fewer than `minLen` nodes. */
export function pruneTree(K: number, edges: [number, number][], minLen = 10): Uint8Array {
  const keep = new Uint8Array(K).fill(1);
  if (K < minLen) return keep;
  const adj = adjacency(K, edges);
  let root = adj.findIndex((a) => a.length === 1);
  if (root < 0) root = 0;
  const { order, father } = dfs(adj, root);
  const pos = new Int32Array(K).fill(-1);
  order.forEach((v, i) => (pos[v] = i));
  const doomed = new Set<number>();
  const checked = new Set<number>();
  for (const v of order) {
    const parent = father[v]!;
    if (parent < 0 || adj[parent]!.length <= 2 || checked.has(parent)) continue;
    checked.add(parent);
    const nb = [...adj[parent]!].sort((a, b) => pos[a]! - pos[b]!);
    // components after removing the parent's edges: those of its 2nd and 3rd neighbours in DFS order
    for (const start of [nb[1], nb[2]]) {
      if (start === undefined) continue;
      const comp = componentWithout(adj, start, parent);
      if (treeDiameterNodes(adj, comp, parent) < minLen) for (const c of comp) doomed.add(c);
    }
  }
  for (const v of doomed) keep[v] = 0;
  return keep;
}

function componentWithout(adj: readonly number[][], start: number, banned: number): number[] {
  const seen = new Set([start, banned]);
  const out = [start];
  for (let h = 0; h < out.length; h++)
    for (const u of adj[out[h]!]!)
      if (!seen.has(u)) {
        seen.add(u);
        out.push(u);
      }
  return out;
}

function treeDiameterNodes(adj: readonly number[][], comp: number[], banned: number): number {
  const inComp = new Set(comp);
  const far = (s: number): [number, number] => {
    const d = new Map([[s, 0]]);
    const q = [s];
    let best: [number, number] = [s, 0];
    for (let h = 0; h < q.length; h++) {
      const v = q[h]!;
      for (const u of adj[v]!) {
        if (u === banned || !inComp.has(u) || d.has(u)) continue;
        d.set(u, d.get(v)! + 1);
        if (d.get(u)! > best[1]) best = [u, d.get(u)!];
        q.push(u);
      }
    }
    return best;
  };
  const [a] = far(comp[0]!);
  return far(a)[1] + 1;
}

/** learn_graph over all partitions; X is the n × 2 embedding, knn its 25-NN (self excluded). */
export function learnGraph(X: Float64Array, n: number, cl: CellClusters, knn: Knn): PrincipalGraph {
  const rho = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let a = 0; a < knn.k; a++) s += knn.distances[i * knn.k + a]!;
    rho[i] = Math.exp(-s / knn.k);
  }
  const Yall: number[] = [];
  const edgesAll: [number, number][] = [];
  const partOfNode: number[] = [];
  const closest = new Int32Array(n).fill(-1);
  for (let part = 0; part < cl.nPartitions; part++) {
    const cells: number[] = [];
    for (let i = 0; i < n; i++) if (cl.partitions[i] === part) cells.push(i);
    const m = cells.length;
    const Xs = new Float64Array(m * 2);
    cells.forEach((c, i) => {
      Xs[2 * i] = X[2 * c]!;
      Xs[2 * i + 1] = X[2 * c + 1]!;
    });
    const nCl = new Set(cells.map((c) => cl.clusters[c]!)).size;
    let K = Math.round(nCl * 15 * Math.log10(m));
    if (K >= m) K = m - 1;
    K = Math.max(1, K);
    const offset = partOfNode.length;
    if (m < 3 || K < 2) {
      // a tiny partition: one node at its mean
      let sx = 0;
      let sy = 0;
      for (let i = 0; i < m; i++) {
        sx += Xs[2 * i]!;
        sy += Xs[2 * i + 1]!;
      }
      Yall.push(sx / m, sy / m);
      partOfNode.push(part);
      for (const c of cells) closest[c] = offset;
      continue;
    }
    // k-means from evenly spaced cells (monocle: seq(1, n, length.out = K))
    const centers = new Float64Array(K * 2);
    for (let c = 0; c < K; c++) {
      const i = Math.round((c * (m - 1)) / Math.max(1, K - 1));
      centers[2 * c] = Xs[2 * i]!;
      centers[2 * c + 1] = Xs[2 * i + 1]!;
    }
    const assign = lloyd(Xs, m, centers, K, 100);
    const bestCell = new Int32Array(K).fill(-1);
    for (let i = 0; i < m; i++) {
      const a = assign[i]!;
      if (bestCell[a]! < 0 || rho[cells[i]!]! > rho[cells[bestCell[a]!]!]!) bestCell[a] = i;
    }
    const med = [...bestCell].filter((i) => i >= 0);
    const K2 = med.length;
    const C0 = new Float64Array(K2 * 2);
    med.forEach((i, c) => {
      C0[2 * c] = Xs[2 * i]!;
      C0[2 * c + 1] = Xs[2 * i + 1]!;
    });
    const { C, edges } = calcPrincipalGraph(Xs, m, C0, K2);
    const keep = pruneTree(K2, edges);
    const newId = new Int32Array(K2).fill(-1);
    let kept = 0;
    for (let c = 0; c < K2; c++) {
      if (!keep[c]) continue;
      newId[c] = offset + kept++;
      Yall.push(C[2 * c]!, C[2 * c + 1]!);
      partOfNode.push(part);
    }
    for (const [a, b] of edges) if (keep[a] && keep[b]) edgesAll.push([newId[a]!, newId[b]!]);
    for (let i = 0; i < m; i++) {
      let best = -1;
      let bd = Infinity;
      for (let c = 0; c < K2; c++) {
        if (!keep[c]) continue;
        const d = sq(Xs, i, C, c);
        if (d < bd) {
          bd = d;
          best = c;
        }
      }
      closest[cells[i]!] = newId[best]!;
    }
  }
  return {
    Y: Float64Array.from(Yall),
    nNodes: partOfNode.length,
    edges: edgesAll,
    partitionOfNode: Int32Array.from(partOfNode),
    closest,
  };
}

function lloyd(X: Float64Array, n: number, centers: Float64Array, K: number, maxIter: number): Int32Array {
  const assign = new Int32Array(n).fill(-1);
  for (let it = 0; it < maxIter; it++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bd = Infinity;
      for (let c = 0; c < K; c++) {
        const d = sq(X, i, centers, c);
        if (d < bd) {
          bd = d;
          best = c;
        }
      }
      if (assign[i] !== best) {
        assign[i] = best;
        changed++;
      }
    }
    if (!changed) break;
    const sum = new Float64Array(K * 2);
    const cnt = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const a = assign[i]!;
      sum[2 * a] += X[2 * i]!;
      sum[2 * a + 1] += X[2 * i + 1]!;
      cnt[a]++;
    }
    for (let c = 0; c < K; c++) {
      if (!cnt[c]) continue;
      centers[2 * c] = sum[2 * c]! / cnt[c]!;
      centers[2 * c + 1] = sum[2 * c + 1]! / cnt[c]!;
    }
  }
  return assign;
}

/** Node name as monocle prints it. */
export const nodeName = (i: number): string => `Y_${i + 1}`;

/**
 * project2MST + order_cells: the cell-wise graph (nodes 0..n−1 cells, n.. principal nodes) and the
 * geodesic pseudotime from the cells nearest to each root node (Infinity in partitions without a root).
 */
export function orderCells(X: Float64Array, n: number, pg: PrincipalGraph, roots: number[]): Float64Array {
  const adj = adjacency(pg.nNodes, pg.edges);
  const K = pg.nNodes;
  const g = wGraph(n + K);
  const proj = new Float64Array(2 * n);
  const edgeSource = new Int32Array(n);
  const edgeTarget = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = pg.closest[i]!;
    let best = -1;
    let bd = Infinity;
    let bx = pg.Y[2 * v]!;
    let by = pg.Y[2 * v + 1]!;
    for (const u of adj[v]!) {
      const [px, py] = projectOnSegment(X[2 * i]!, X[2 * i + 1]!, pg.Y, v, u);
      const d = (px - X[2 * i]!) ** 2 + (py - X[2 * i + 1]!) ** 2;
      if (d < bd) {
        bd = d;
        best = u;
        bx = px;
        by = py;
      }
    }
    proj[2 * i] = bx;
    proj[2 * i + 1] = by;
    // monocle sorts the edge's two node names as strings: the smaller is the source
    const u = best < 0 ? v : best;
    const [s, t] = nodeName(v) < nodeName(u) ? [v, u] : [u, v];
    edgeSource[i] = s;
    edgeTarget[i] = t;
  }
  // cells grouped by edge, ordered by distance to the edge's source, chained from the source
  const groups = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = `${edgeSource[i]}_${edgeTarget[i]}`;
    let a = groups.get(key);
    if (!a) groups.set(key, (a = []));
    a.push(i);
  }
  const chain: [number, number, number][] = [];
  let minPos = Infinity;
  for (const members of groups.values()) {
    const s = edgeSource[members[0]!]!;
    const d2s = (i: number) => Math.hypot(proj[2 * i]! - pg.Y[2 * s]!, proj[2 * i + 1]! - pg.Y[2 * s + 1]!);
    members.sort((a, b) => d2s(a) - d2s(b));
    let prevNode = n + s;
    let px = pg.Y[2 * s]!;
    let py = pg.Y[2 * s + 1]!;
    for (const i of members) {
      const w = Math.hypot(proj[2 * i]! - px, proj[2 * i + 1]! - py);
      chain.push([prevNode, i, w]);
      if (w > 0 && w < minPos) minPos = w;
      prevNode = i;
      px = proj[2 * i]!;
      py = proj[2 * i + 1]!;
    }
  }
  if (!Number.isFinite(minPos)) minPos = 0;
  for (const [a, b, w] of chain) addEdge(g, a, b, w + minPos);
  for (const [a, b] of pg.edges) addEdge(g, n + a, n + b, Math.sqrt(sq(pg.Y, a, pg.Y, b)));
  // root cells: the cell nearest to each root node
  const sources = roots.map((r) => {
    let best = 0;
    let bd = Infinity;
    for (let i = 0; i < n; i++) {
      const d = (X[2 * i]! - pg.Y[2 * r]!) ** 2 + (X[2 * i + 1]! - pg.Y[2 * r + 1]!) ** 2;
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
    return best;
  });
  const dist = dijkstra(g, sources);
  return dist.slice(0, n);
}

function projectOnSegment(x: number, y: number, Y: Float64Array, a: number, b: number): [number, number] {
  const ax = Y[2 * a]!;
  const ay = Y[2 * a + 1]!;
  const abx = Y[2 * b]! - ax;
  const aby = Y[2 * b + 1]! - ay;
  const ab2 = abx * abx + aby * aby;
  if (ab2 === 0) return [ax, ay];
  const t = ((x - ax) * abx + (y - ay) * aby) / ab2;
  if (t < 0) return [ax, ay];
  if (t > 1) return [ax + abx, ay + aby];
  return [ax + t * abx, ay + t * aby];
}

/** Automatic root of a cell type: the principal node closest to most of its cells. */
export function autoRoot(pg: PrincipalGraph, cellsOfType: number[]): number {
  const count = new Map<number, number>();
  for (const c of cellsOfType) count.set(pg.closest[c]!, (count.get(pg.closest[c]!) ?? 0) + 1);
  let best = -1;
  let bc = -1;
  for (const [v, c] of [...count].sort((a, b) => a[0] - b[0]))
    if (c > bc) {
      bc = c;
      best = v;
    }
  return best;
}
