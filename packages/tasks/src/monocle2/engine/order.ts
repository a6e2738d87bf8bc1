import { adjacency, dfs, primMst } from '../../_shared/engine/trajectory/common';
import { nearestCentre, projectOnEdge } from '../../_shared/engine/trajectory/principal-tree';

/**
 * monocle 2's orderCells for DDRTree (order_cells.R): States from a depth-first walk of the
 * centres' MST (a new State after every branch node), cells projected on the MST edges of their
 * closest centre (segment projection; orthogonal on the line at tips), a cell-level MST over the
 * projections with every distance raised by the smallest positive one, pseudotime = distance from
 * the root cell along that tree; select_root_cell for a root State.
 */
export interface DdrTreeOrdering {
  /** State (1-based) of every cell */
  state: Int32Array;
  pseudotime: Float64Array;
  rootCell: number;
  rootNode: number;
  /** State of every centre */
  nodeState: Int32Array;
  nStates: number;
}

export interface TreeModel {
  Z: Float64Array;
  N: number;
  Y: Float64Array;
  K: number;
  edges: [number, number][];
  adj: number[][];
  closest: Int32Array;
  /** cell projections (N × 2) and the cell MST */
  P: Float64Array;
  cellAdj: number[][];
  cellW: Map<number, number>[];
}

const d2 = (a: Float64Array, i: number, b: Float64Array, j: number) =>
  Math.hypot(a[2 * i]! - b[2 * j]!, a[2 * i + 1]! - b[2 * j + 1]!);

export function buildTreeModel(Z: Float64Array, N: number, Y: Float64Array, K: number): TreeModel {
  const edges = primMst(K, (a, b) => d2(Y, a, Y, b));
  const adj = adjacency(K, edges);
  const closest = new Int32Array(N);
  for (let i = 0; i < N; i++) closest[i] = nearestCentre(K, (c) => d2(Z, i, Y, c));
  // project2MST
  const P = new Float64Array(2 * N);
  for (let i = 0; i < N; i++) {
    const v = closest[i]!;
    const tip = adj[v]!.length === 1;
    let bd = Infinity;
    P[2 * i] = Y[2 * v]!;
    P[2 * i + 1] = Y[2 * v + 1]!;
    for (const u of adj[v]!) {
      const [px, py] = projectOnEdge(Z[2 * i]!, Z[2 * i + 1]!, Y, v, u, tip);
      const dd = Math.hypot(px - Z[2 * i]!, py - Z[2 * i + 1]!);
      if (dd < bd) {
        bd = dd;
        P[2 * i] = px;
        P[2 * i + 1] = py;
      }
    }
  }
  let minPos = Infinity;
  const cellEdges = primMst(N, (a, b) => {
    const v = d2(P, a, P, b);
    if (v > 0 && v < minPos) minPos = v;
    return v;
  });
  if (!Number.isFinite(minPos)) minPos = 0;
  const cellAdj = adjacency(N, cellEdges);
  const cellW: Map<number, number>[] = Array.from({ length: N }, () => new Map());
  for (const [a, b] of cellEdges) {
    const w = d2(P, a, P, b) + minPos;
    cellW[a]!.set(b, w);
    cellW[b]!.set(a, w);
  }
  return { Z, N, Y, K, edges, adj, closest, P, cellAdj, cellW };
}

/** extract_ddrtree_ordering on a tree: States (new one after each branch node) and path lengths. */
function treeOrdering(
  adj: number[][],
  weight: (a: number, b: number) => number,
  root: number,
): { state: Int32Array; time: Float64Array; nStates: number } {
  const { order, father } = dfs(adj, root);
  const state = new Int32Array(adj.length).fill(1);
  const time = new Float64Array(adj.length);
  let cur = 1;
  for (const v of order) {
    const p = father[v]!;
    if (p >= 0) {
      time[v] = time[p]! + weight(v, p);
      if (adj[p]!.length > 2) cur++;
    }
    state[v] = cur;
  }
  return { state, time, nStates: cur };
}

/** Endpoints of a tree's weighted diameter (double sweep); the lower index first, as igraph reports it. */
function treeDiameter(
  adj: number[][],
  weight: (a: number, b: number) => number,
  members: number[],
): [number, number, number[]] {
  const far = (s: number) => {
    const dist = new Map([[s, 0]]);
    const parent = new Map<number, number>();
    const stack = [s];
    let best = s;
    while (stack.length) {
      const v = stack.pop()!;
      for (const u of adj[v]!) {
        if (dist.has(u)) continue;
        dist.set(u, dist.get(v)! + weight(v, u));
        parent.set(u, v);
        if (dist.get(u)! > dist.get(best)!) best = u;
        stack.push(u);
      }
    }
    return { best, parent };
  };
  const a = far(members[0]!).best;
  const { best: b, parent } = far(a);
  const path = [b];
  while (path[path.length - 1] !== a) path.push(parent.get(path[path.length - 1]!)!);
  path.reverse();
  return a <= b ? [a, b, path] : [b, a, path.reverse()];
}

export function orderCells(
  m: TreeModel,
  opts: { rootState?: number; reverse?: boolean; previous?: DdrTreeOrdering },
): DdrTreeOrdering {
  const yw = (a: number, b: number) => d2(m.Y, a, m.Y, b);
  let rootNode: number;
  if (opts.rootState === undefined) {
    const [a, b] = treeDiameter(m.adj, yw, [0]);
    rootNode = opts.reverse ? b : a;
  } else {
    const prev = opts.previous!;
    const cand: number[] = [];
    for (let i = 0; i < m.N; i++) if (prev.state[i] === opts.rootState) cand.push(i);
    // local MST over the candidates' reduced coordinates, its diameter path
    const local = primMst(cand.length, (a, b) => d2(m.Z, cand[a]!, m.Z, cand[b]!));
    const ladj = adjacency(cand.length, local);
    const path =
      cand.length > 1
        ? treeDiameter(ladj, (a, b) => d2(m.Z, cand[a]!, m.Z, cand[b]!), [0])[2].map((i) => cand[i]!)
        : cand;
    const pick = prev.state[prev.rootCell] === opts.rootState ? Math.min : Math.max;
    const target = pick(...path.map((i) => prev.pseudotime[i]!));
    const rootCell = path.find((i) => prev.pseudotime[i] === target)!;
    rootNode = m.closest[rootCell]!;
  }
  const nodeOrder = treeOrdering(m.adj, yw, rootNode);
  // root cell: a cell mapped to the root centre that is a tip of the cell tree
  let rootCell = -1;
  for (let i = 0; i < m.N; i++) {
    if (m.closest[i] === rootNode && m.cellAdj[i]!.length === 1) {
      rootCell = i;
      break;
    }
  }
  if (rootCell < 0) {
    let bd = Infinity;
    for (let i = 0; i < m.N; i++) {
      const v = d2(m.P, i, m.Y, rootNode);
      if (v < bd) {
        bd = v;
        rootCell = i;
      }
    }
  }
  const cw = (a: number, b: number) => m.cellW[a]!.get(b)!;
  const cellOrder = treeOrdering(m.cellAdj, cw, rootCell);
  const state =
    opts.rootState === undefined
      ? Int32Array.from(m.closest, (v) => nodeOrder.state[v]!)
      : Int32Array.from(opts.previous!.state);
  const nStates = opts.rootState === undefined ? nodeOrder.nStates : opts.previous!.nStates;
  return { state, pseudotime: cellOrder.time, rootCell, rootNode, nodeState: nodeOrder.state, nStates };
}

/** Branch points: centres of degree > 2. */
export function branchPoints(m: TreeModel): number[] {
  return m.adj.flatMap((a, v) => (a.length > 2 ? [v] : []));
}
