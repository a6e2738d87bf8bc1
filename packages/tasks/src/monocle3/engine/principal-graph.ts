import { solveDense } from '@cellcloud/engine/methods/linalg';
import {
  centreMst,
  evenlySpacedCentres,
  lloyd2d,
  softAssignRow,
  sqDist2d,
  treeLaplacian,
  treeLength,
} from '../../_shared/engine/trajectory/principal-tree';
import { adjacency, dfs } from '../../_shared/engine/trajectory/common';
import type { CellClusters, Knn } from './partitions';

/**
 * Monocle 3's learn_graph.R (monocle3 1.3) on a 2D embedding (row-major n × 2): per partition,
 * ncenter = round(clusters · 15 · log10(cells)), k-means from evenly spaced cells, the densest cell
 * of each k-means cluster (density exp(−mean 25-NN distance)) as the initial centre, SimplePPT
 * (calc_principal_graph: MST on the centres, soft assignment σ = 0.01, centres from
 * (2L + γ diag(ΣP)) C = γ X P with γ = 0.5, 10 iterations, eps 1e-5), then prune_tree (side
 * branches shorter than 10 nodes). Loop closure (close_loop) is not done. Clustering and
 * partitions: partitions.ts; projection and pseudotime: order-cells.ts.
 */

export interface PrincipalGraph {
  /** Node coordinates, row-major nNodes × 2. */
  Y: Float64Array;
  nNodes: number;
  edges: [number, number][];
  partitionOfNode: Int32Array;
  /** Closest principal node of every cell. */
  closest: Int32Array;
}

const sq = sqDist2d;

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
    edges = centreMst(C, K);
    const objW = treeLength(C, edges);
    // soft assignment + centres' right-hand side in one pass
    const colP = new Float64Array(K);
    const B = new Float64Array(K * 2);
    let objP = 0;
    for (let i = 0; i < n; i++) {
      const { sum: s, min } = softAssignRow(X, i, C, K, sigma, P, 0);
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
    const Q = treeLaplacian(K, edges, 2);
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
    const centers = evenlySpacedCentres(Xs, m, K);
    const assign = lloyd2d(Xs, m, centers, K, 100);
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

/** Node name as monocle prints it. */
export const nodeName = (i: number): string => `Y_${i + 1}`;
