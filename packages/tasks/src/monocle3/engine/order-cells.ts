import { addEdge, adjacency, dijkstra, wGraph } from '../../_shared/engine/trajectory/common';
import { nodeName, type PrincipalGraph } from './principal-graph';
import { projectOnEdge, sqDist2d as sq } from '../../_shared/engine/trajectory/principal-tree';

/**
 * Monocle 3's order_cells.R: projection of every cell on the nearest edge of its closest node and
 * the cell-wise graph of project2MST (cells chained along each edge from its source node, the
 * principal edges), and the geodesic pseudotime from the cells nearest to the root nodes.
 */

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
      const [px, py] = projectOnEdge(X[2 * i]!, X[2 * i + 1]!, pg.Y, v, u);
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
