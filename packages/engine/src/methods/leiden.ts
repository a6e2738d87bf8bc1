/**
 * Leiden community detection (Traag, Waltman & van Eck 2019) on a weighted undirected CSR graph,
 * with the same RB configuration quality as louvain.ts — scanpy `tl.leiden` through leidenalg.
 * Our own TypeScript because scran.js cannot cluster a custom graph.
 *
 * Each level: fast local moving (louvain.ts `moveNodes`), then the refinement phase — every
 * community is split back into singletons which, in a seeded random order, merge greedily into
 * the refined sub-community (inside the same community) that improves the quality most, as
 * leidenalg's constrained merge — and the graph is aggregated by the REFINED partition, each
 * aggregate node starting in its unrefined community. The whole procedure runs `iterations` times
 * (scanpy's n_iterations = 2), each starting from the previous result. Deterministic for a seed.
 */
import type { OrderedGraph } from './community-order';
import type { WeightedGraph } from './fuzzy-graph';
import {
  aggregate,
  bestCommunity,
  communityOptions,
  degrees,
  identity,
  moveNodes,
  renumberFirstSeen,
  Scratch,
  shuffledNodes,
  totalDegree,
  type CommunityOptions,
} from './louvain';
import { ShuffleRandom } from './shuffle-random';

export interface LeidenOptions extends CommunityOptions {
  /** Repetitions of the whole procedure, each from the previous partition (default 2). */
  iterations?: number;
}

/** Community of every node, numbered 0.. in order of first appearance. */
export function leiden(graph: WeightedGraph, opts: LeidenOptions = {}): Int32Array {
  return leidenOrdered({ graph }, opts);
}

/**
 * leiden() of the graph `ordered` renames (community-order.ts): the same memberships, of the
 * original nodes, bit for bit.
 */
export function leidenOrdered(ordered: OrderedGraph, opts: LeidenOptions = {}): Int32Array {
  const { resolution, seed } = communityOptions('leiden', opts as LeidenOptions & Record<string, unknown>, [
    'iterations',
  ]);
  const iterations = opts.iterations ?? 2;
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new Error(`leiden: iterations must be a positive integer (got ${iterations})`);
  const rng = new ShuffleRandom(seed);
  const { graph } = ordered;
  const scratch = new Scratch(graph.nNodes);
  // the first level's degrees, the same every pass
  const deg = degrees(graph);
  let result: Int32Array = identity(graph.nNodes);
  for (let it = 0; it < iterations; it++) {
    const next = leidenPass(ordered, result, resolution, rng, scratch, deg);
    const same = equal(next, result);
    result = next;
    if (same) break;
  }
  return result;
}

function equal(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * One Leiden run from an initial partition of the original nodes (the first level in the renamed
 * order of `ordered`, whose labels are renamed alike; the levels above are the original code's).
 */
function leidenPass(
  ordered: OrderedGraph,
  initial: Int32Array,
  resolution: number,
  rng: ShuffleRandom,
  scratch: Scratch,
  deg0: Float64Array,
): Int32Array {
  const { graph, pos } = ordered;
  const n = graph.nNodes;
  // node of the current level each original node is in (level 0: its renamed id)
  const nodeOf = pos ? pos.slice() : identity(n);
  let g = graph;
  let membership = initial.slice();
  if (pos) for (let i = 0; i < n; i++) membership[pos[i]] = pos[initial[i]];
  for (;;) {
    const first = g === graph;
    const order = first ? pos : undefined;
    const deg = first ? deg0 : degrees(g);
    moveNodes(g, membership, resolution, rng, scratch, deg, order);
    const k = renumberFirstSeen(membership, order);
    const refined = refine(g, membership, resolution, rng, scratch, deg, order);
    const kRefined = renumberFirstSeen(refined, order);
    if (!(kRefined < g.nNodes && k < g.nNodes)) break;
    const aggregated = new Int32Array(kRefined);
    for (let i = 0; i < g.nNodes; i++) aggregated[refined[i]] = membership[i];
    for (let i = 0; i < nodeOf.length; i++) nodeOf[i] = refined[nodeOf[i]];
    g = aggregate(g, refined, kRefined, order);
    membership = aggregated;
  }
  for (let i = 0; i < nodeOf.length; i++) nodeOf[i] = membership[nodeOf[i]];
  renumberFirstSeen(nodeOf);
  return nodeOf;
}

/**
 * Refinement: singletons merge, in random order, into the neighbouring refined sub-community of
 * the same community with the largest positive quality gain; a node that already took in others
 * stays where it is (leidenalg merge_nodes_constrained). `pos`: as moveNodes'.
 */
function refine(
  g: WeightedGraph,
  membership: Int32Array,
  resolution: number,
  rng: ShuffleRandom,
  scratch: Scratch,
  deg: Float64Array,
  pos?: Int32Array,
): Int32Array {
  const n = g.nNodes;
  const { indptr, indices, weights } = g;
  const total = totalDegree(deg, pos);
  // singletons: original node i's label i is renamed pos[i], its node's id
  const refined = identity(n);
  if (total === 0) return refined;
  const size = new Int32Array(n).fill(1);
  const refDeg = deg.slice();
  const { neighW, touched, gain } = scratch;
  const scale = resolution / total;
  const order = shuffledNodes(n, rng, pos);
  for (let o = 0; o < n; o++) {
    const v = order[o];
    const own = refined[v];
    if (size[own] !== 1) continue;
    const mv = membership[v];
    let nt = 0;
    for (let p = indptr[v]; p < indptr[v + 1]; p++) {
      const u = indices[p];
      if (u === v || membership[u] !== mv) continue;
      const c = refined[u];
      if (neighW[c] === 0) touched[nt++] = c;
      neighW[c] += weights[p];
    }
    const dv = deg[v];
    // Staying a singleton gains 0; merging must gain more than rounding noise.
    const best = bestCommunity(touched, nt, neighW, refDeg, scale * dv, own, 1e-12 * Math.max(1, dv), gain);
    if (best === own) continue;
    refined[v] = best;
    size[own] = 0;
    refDeg[own] = 0;
    size[best]++;
    refDeg[best] += dv;
  }
  return refined;
}
