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
import type { WeightedGraph } from './fuzzy-graph';
import {
  aggregate,
  bestCommunity,
  communityOptions,
  degrees,
  moveNodes,
  renumberFirstSeen,
  type CommunityOptions,
} from './louvain';
import { Random } from './random';

export interface LeidenOptions extends CommunityOptions {
  /** Repetitions of the whole procedure, each from the previous partition (default 2). */
  iterations?: number;
}

/** Community of every node, numbered 0.. in order of first appearance. */
export function leiden(graph: WeightedGraph, opts: LeidenOptions = {}): Int32Array {
  const { resolution, seed } = communityOptions('leiden', opts as LeidenOptions & Record<string, unknown>, [
    'iterations',
  ]);
  const iterations = opts.iterations ?? 2;
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new Error(`leiden: iterations must be a positive integer (got ${iterations})`);
  const rng = new Random(seed);
  let result: Int32Array = Int32Array.from({ length: graph.nNodes }, (_, i) => i);
  for (let it = 0; it < iterations; it++) {
    const next = leidenPass(graph, result, resolution, rng);
    const same = next.every((c, i) => c === result[i]);
    result = next;
    if (same) break;
  }
  return result;
}

/** One Leiden run from an initial partition of the original graph. */
function leidenPass(graph: WeightedGraph, initial: Int32Array, resolution: number, rng: Random): Int32Array {
  const nodeOf = Int32Array.from({ length: graph.nNodes }, (_, i) => i);
  let g = graph;
  let membership = Int32Array.from(initial);
  for (;;) {
    moveNodes(g, membership, resolution, rng);
    const k = renumberFirstSeen(membership);
    const refined = refine(g, membership, resolution, rng);
    const kRefined = renumberFirstSeen(refined);
    if (!(kRefined < g.nNodes && k < g.nNodes)) break;
    const aggregated = new Int32Array(kRefined);
    for (let i = 0; i < g.nNodes; i++) aggregated[refined[i]] = membership[i];
    for (let i = 0; i < nodeOf.length; i++) nodeOf[i] = refined[nodeOf[i]];
    g = aggregate(g, refined, kRefined);
    membership = aggregated;
  }
  const out = Int32Array.from(nodeOf, (a) => membership[a]);
  renumberFirstSeen(out);
  return out;
}

/**
 * Refinement: singletons merge, in random order, into the neighbouring refined sub-community of
 * the same community with the largest positive quality gain; a node that already took in others
 * stays where it is (leidenalg merge_nodes_constrained).
 */
function refine(g: WeightedGraph, membership: Int32Array, resolution: number, rng: Random): Int32Array {
  const n = g.nNodes;
  const { indptr, indices, weights } = g;
  const deg = degrees(g);
  let total = 0;
  for (let i = 0; i < n; i++) total += deg[i];
  const refined = Int32Array.from({ length: n }, (_, i) => i);
  if (total === 0) return refined;
  const size = new Int32Array(n).fill(1);
  const refDeg = Float64Array.from(deg);
  const neighW = new Float64Array(n);
  const touched = new Int32Array(n);
  const scale = resolution / total;
  const order = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  for (const v of order) {
    const own = refined[v];
    if (size[own] !== 1) continue;
    let nt = 0;
    for (let p = indptr[v]; p < indptr[v + 1]; p++) {
      const u = indices[p];
      if (u === v || membership[u] !== membership[v]) continue;
      const c = refined[u];
      if (neighW[c] === 0) touched[nt++] = c;
      neighW[c] += weights[p];
    }
    const dv = deg[v];
    // Staying a singleton gains 0; merging must gain more than rounding noise.
    const best = bestCommunity(
      touched,
      nt,
      neighW,
      refDeg,
      scale * dv,
      own,
      1e-12 * Math.max(1, dv),
    ).community;
    if (best === own) continue;
    refined[v] = best;
    size[own] = 0;
    refDeg[own] = 0;
    size[best]++;
    refDeg[best] += dv;
  }
  return refined;
}
