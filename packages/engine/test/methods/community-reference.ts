/**
 * Test-only: louvain.ts and leiden.ts as they were before the locality / allocation work (commit
 * 02f1b64), verbatim apart from names, so that community-identity.test.ts and
 * scripts/bench/leiden.ts can check that the optimized code returns the SAME memberships, bit for
 * bit, for every graph and seed. Do not "improve" this file: it is the specification.
 */
import type { WeightedGraph } from '../../src/methods/fuzzy-graph';
import { Random } from '../../src/methods/random';

export interface ReferenceOptions {
  resolution?: number;
  seed?: number;
  iterations?: number;
}
export function referenceLouvain(graph: WeightedGraph, opts: ReferenceOptions = {}): Int32Array {
  const { resolution = 1, seed = 0 } = opts;
  const rng = new Random(seed);
  const nodeOf = Int32Array.from({ length: graph.nNodes }, (_, i) => i);
  let g = graph;
  for (;;) {
    const membership = Int32Array.from({ length: g.nNodes }, (_, i) => i);
    moveNodes(g, membership, resolution, rng);
    const k = renumberFirstSeen(membership);
    for (let i = 0; i < nodeOf.length; i++) nodeOf[i] = membership[nodeOf[i]];
    if (k === g.nNodes) break;
    g = aggregate(g, membership, k);
  }
  renumberFirstSeen(nodeOf);
  return nodeOf;
}

/** Weighted degree (row sum, self-loops once) of every node. */
function degrees(g: WeightedGraph): Float64Array {
  const deg = new Float64Array(g.nNodes);
  for (let i = 0; i < g.nNodes; i++)
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) deg[i] += g.weights[p];
  return deg;
}

/**
 * Local moving phase from the partition in `membership` (updated in place; community ids must be
 * < nNodes). Returns whether any node changed community.
 */
function moveNodes(g: WeightedGraph, membership: Int32Array, resolution: number, rng: Random): boolean {
  const n = g.nNodes;
  const { indptr, indices, weights } = g;
  const deg = degrees(g);
  let total = 0;
  for (let i = 0; i < n; i++) total += deg[i];
  if (total === 0) return false;
  const commDeg = new Float64Array(n);
  const commSize = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    commDeg[membership[i]] += deg[i];
    commSize[membership[i]]++;
  }
  const free = new Int32Array(n);
  let nFree = 0;
  for (let c = n - 1; c >= 0; c--) if (commSize[c] === 0) free[nFree++] = c;
  const queue = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  const inQueue = new Uint8Array(n).fill(1);
  let head = 0;
  let queued = n;
  const neighW = new Float64Array(n);
  const touched = new Int32Array(n);
  const scale = resolution / total;
  let changed = false;
  while (queued > 0) {
    const v = queue[head];
    head = head + 1 === n ? 0 : head + 1;
    queued--;
    inQueue[v] = 0;
    const own = membership[v];
    const dv = deg[v];
    let nt = 0;
    for (let p = indptr[v]; p < indptr[v + 1]; p++) {
      const u = indices[p];
      if (u === v) continue;
      const c = membership[u];
      if (neighW[c] === 0) touched[nt++] = c;
      neighW[c] += weights[p];
    }
    commDeg[own] -= dv;
    commSize[own]--;
    const ownGain = neighW[own] - scale * dv * commDeg[own];
    const scan = bestCommunity(touched, nt, neighW, commDeg, scale * dv, own, ownGain);
    let best = scan.community;
    let bestGain = scan.gain;
    // Alone in an empty community the gain is 0.
    if (commSize[own] > 0 && bestGain < 0) {
      while (nFree > 0 && commSize[free[nFree - 1]] !== 0) nFree--;
      if (nFree > 0) {
        best = free[--nFree];
        bestGain = 0;
      }
    }
    // Move only on a real improvement (guards against cycling on rounding noise).
    if (best !== own && bestGain - ownGain <= 1e-12 * Math.max(1, dv)) best = own;
    commDeg[best] += dv;
    commSize[best]++;
    membership[v] = best;
    if (best === own) continue;
    changed = true;
    if (commSize[own] === 0) free[nFree++] = own;
    for (let p = indptr[v]; p < indptr[v + 1]; p++) {
      const u = indices[p];
      if (inQueue[u] || membership[u] === best) continue;
      inQueue[u] = 1;
      queue[(head + queued) % n] = u;
      queued++;
    }
  }
  return changed;
}

/**
 * Among the `nt` communities in `touched`, the one with the largest gain w_c − scaledDeg·K_c
 * (w = weight from the node, K = community degree without the node) if above `floorGain`, else
 * `floor`. Clears the touched entries of `neighW`.
 */
function bestCommunity(
  touched: Int32Array,
  nt: number,
  neighW: Float64Array,
  commDeg: Float64Array,
  scaledDeg: number,
  floor: number,
  floorGain: number,
): { community: number; gain: number } {
  let community = floor;
  let gain = floorGain;
  for (let t = 0; t < nt; t++) {
    const c = touched[t];
    const g = neighW[c] - scaledDeg * commDeg[c];
    if (g > gain) {
      community = c;
      gain = g;
    }
    neighW[c] = 0;
  }
  return { community, gain };
}

/** Renumbers ids in place to 0.. in order of first appearance; returns the number of ids. */
function renumberFirstSeen(ids: Int32Array): number {
  let max = -1;
  for (let i = 0; i < ids.length; i++) if (ids[i] > max) max = ids[i];
  const map = new Int32Array(max + 1).fill(-1);
  let k = 0;
  for (let i = 0; i < ids.length; i++) {
    if (map[ids[i]] < 0) map[ids[i]] = k++;
    ids[i] = map[ids[i]];
  }
  return k;
}

/**
 * The graph of communities: node c = community c (ids 0..k−1), A'_cd = Σ_{i∈c, j∈d} A_ij (so a
 * community's internal edges become a self-loop and degrees are preserved).
 */
function aggregate(g: WeightedGraph, membership: Int32Array, k: number): WeightedGraph {
  const start = new Int32Array(k + 1);
  for (let i = 0; i < g.nNodes; i++) start[membership[i] + 1]++;
  for (let c = 0; c < k; c++) start[c + 1] += start[c];
  const fill = start.slice(0, k);
  const members = new Int32Array(g.nNodes);
  for (let i = 0; i < g.nNodes; i++) members[fill[membership[i]]++] = i;
  const acc = new Float64Array(k);
  const touched = new Int32Array(k);
  const indptr = new Int32Array(k + 1);
  const indices = new Int32Array(g.indices.length);
  const weights = new Float64Array(g.indices.length);
  let out = 0;
  for (let c = 0; c < k; c++) {
    let nt = 0;
    for (let m = start[c]; m < start[c + 1]; m++) {
      const i = members[m];
      for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
        const d = membership[g.indices[p]];
        if (acc[d] === 0) touched[nt++] = d;
        acc[d] += g.weights[p];
      }
    }
    touched.subarray(0, nt).sort();
    for (let t = 0; t < nt; t++) {
      indices[out] = touched[t];
      weights[out++] = acc[touched[t]];
      acc[touched[t]] = 0;
    }
    indptr[c + 1] = out;
  }
  return { nNodes: k, indptr, indices: indices.slice(0, out), weights: weights.slice(0, out) };
}
/** Community of every node, numbered 0.. in order of first appearance. */
export function referenceLeiden(graph: WeightedGraph, opts: ReferenceOptions = {}): Int32Array {
  const { resolution = 1, seed = 0, iterations = 2 } = opts;
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
