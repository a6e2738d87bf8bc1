/**
 * A cache-friendly copy of a graph for Louvain / Leiden (issue 33): the nodes renamed in
 * breadth-first order, so that a node's row and its neighbours' memberships lie near each other
 * in memory. Community detection visits the nodes of the first level in a random order and reads,
 * per node, its row and the membership of every neighbour; with the cells' own order (random with
 * respect to the graph) that is a cache miss per neighbour on a million-node graph.
 *
 * The memberships stay bit for bit those of the graph in its own order (louvain.ts, leiden.ts take
 * `pos` and do every order-dependent step in the ORIGINAL node order: the seeded visiting orders
 * are mapped through `pos`, degree and aggregate sums, first-seen renumbering and the free
 * community stack follow the original ids, and each row keeps its neighbour order). Community
 * labels of the first level are renamed with the nodes (label c ↦ pos[c]), a bijection on 0..n−1.
 */
import type { WeightedGraph } from './fuzzy-graph';

/** A graph with node i renamed pos[i] (pos undefined: the graph in its own order). */
export interface OrderedGraph {
  graph: WeightedGraph;
  pos?: Int32Array;
}

/**
 * Breadth-first order of the nodes (components one after the other, each from its
 * lowest-numbered node, neighbours in row order): pos[i] = new id of node i.
 */
export function breadthFirstOrder(g: WeightedGraph): Int32Array {
  const n = g.nNodes;
  const { indptr, indices } = g;
  const pos = new Int32Array(n).fill(-1);
  const visit = new Int32Array(n);
  let tail = 0;
  let head = 0;
  for (let s = 0; s < n; s++) {
    if (pos[s] >= 0) continue;
    pos[s] = tail;
    visit[tail++] = s;
    while (head < tail) {
      const v = visit[head++];
      for (let p = indptr[v]; p < indptr[v + 1]; p++) {
        const u = indices[p];
        if (pos[u] < 0) {
          pos[u] = tail;
          visit[tail++] = u;
        }
      }
    }
  }
  return pos;
}

/**
 * `g` with node i renamed pos[i] (rows in the new order, each row's neighbours in their original
 * order); on SharedArrayBuffers when `shared` (community-restarts.ts's worker threads read it).
 */
export function relabelled(g: WeightedGraph, pos: Int32Array, shared = false): OrderedGraph {
  const n = g.nNodes;
  const ints = (length: number) =>
    shared ? new Int32Array(new SharedArrayBuffer(4 * length)) : new Int32Array(length);
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[pos[i]] = i;
  const indptr = ints(n + 1);
  for (let v = 0; v < n; v++) indptr[v + 1] = indptr[v] + g.indptr[perm[v] + 1] - g.indptr[perm[v]];
  const indices = ints(g.indices.length);
  const weights = shared
    ? new Float64Array(new SharedArrayBuffer(8 * g.indices.length))
    : new Float64Array(g.indices.length);
  for (let v = 0; v < n; v++) {
    let out = indptr[v];
    for (let p = g.indptr[perm[v]]; p < g.indptr[perm[v] + 1]; p++) {
      indices[out] = pos[g.indices[p]];
      weights[out++] = g.weights[p];
    }
  }
  const outPos = ints(n);
  outPos.set(pos);
  return { graph: { nNodes: n, indptr, indices, weights }, pos: outPos };
}

/** `g` renamed in breadth-first order (see breadthFirstOrder, relabelled). */
export function orderedGraph(g: WeightedGraph, shared = false): OrderedGraph {
  return relabelled(g, breadthFirstOrder(g), shared);
}
