/**
 * Louvain community detection on a weighted undirected CSR graph, maximising the RB configuration
 * quality Σ_ij (A_ij − γ k_i k_j / 2m) δ(c_i, c_j) (modularity when γ = 1) — what scanpy
 * `tl.louvain` runs through louvain-igraph's RBConfigurationVertexPartition (docs/methods/pipeline.md#neighbours-and-clustering).
 * Our own TypeScript because scran.js cannot cluster a custom graph (it only clusters its own
 * SNN graph). Typed arrays throughout: no per-node objects.
 *
 * Each level: local moving (nodes visited in a seeded random order; a node that moves puts its
 * neighbours outside its new community back in the queue — leidenalg's fast local move — and may
 * also move to an empty community), then the graph is aggregated by community and the next level
 * starts from singletons. Stops when a level moves nothing. Deterministic for a seed.
 * `moveNodes`, `bestCommunity`, `aggregate` and `renumberFirstSeen` are shared with leiden.ts.
 */
import type { OrderedGraph } from './community-order';
import type { WeightedGraph } from './fuzzy-graph';
import { ShuffleRandom } from './shuffle-random';

export interface CommunityOptions {
  /** γ: higher → more, smaller communities (default 1 = modularity). */
  resolution?: number;
  /** Seed of the node visiting order (default 0, scanpy's random_state). */
  seed?: number;
}

/** Validates the options shared by louvain() and leiden(). */
export function communityOptions(
  fn: string,
  opts: CommunityOptions & Record<string, unknown>,
  extra: string[] = [],
): Required<CommunityOptions> {
  const { resolution = 1, seed = 0 } = opts;
  const unknown = Object.keys(opts).filter((k) => k !== 'resolution' && k !== 'seed' && !extra.includes(k));
  if (unknown.length) throw new Error(`${fn}: unknown option(s) ${unknown.join(', ')}`);
  if (!(resolution > 0) || !Number.isFinite(resolution))
    throw new Error(`${fn}: resolution must be a positive number (got ${resolution})`);
  if (!Number.isInteger(seed)) throw new Error(`${fn}: seed must be an integer (got ${seed})`);
  return { resolution, seed };
}

/** Community of every node, numbered 0.. in order of first appearance. */
export function louvain(graph: WeightedGraph, opts: CommunityOptions = {}): Int32Array {
  return louvainOrdered({ graph }, opts);
}

/**
 * louvain() of the graph `ordered` renames (community-order.ts): the same memberships, of the
 * original nodes, bit for bit.
 */
export function louvainOrdered(ordered: OrderedGraph, opts: CommunityOptions = {}): Int32Array {
  const { resolution, seed } = communityOptions(
    'louvain',
    opts as CommunityOptions & Record<string, unknown>,
  );
  const rng = new ShuffleRandom(seed);
  const { graph, pos } = ordered;
  // node of the current level each original node is in (level 0: its renamed id)
  const nodeOf = pos ? pos.slice() : identity(graph.nNodes);
  const scratch = new Scratch(graph.nNodes);
  let g = graph;
  for (;;) {
    const order = g === graph ? pos : undefined;
    const membership = identity(g.nNodes);
    moveNodes(g, membership, resolution, rng, scratch, degrees(g), order);
    const k = renumberFirstSeen(membership, order);
    for (let i = 0; i < nodeOf.length; i++) nodeOf[i] = membership[nodeOf[i]];
    if (k === g.nNodes) break;
    g = aggregate(g, membership, k, order);
  }
  renumberFirstSeen(nodeOf);
  return nodeOf;
}

/** 0, 1, …, n − 1 (a plain loop: Int32Array.from with a callback is several times slower). */
export function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * Working arrays of one run, sized for its largest (first) level and reused by every level and
 * phase instead of n-sized allocations per call: `neighW` is all zeros between uses
 * (bestCommunity clears what it reads); `gain` receives bestCommunity's gain.
 */
export class Scratch {
  readonly neighW: Float64Array;
  readonly touched: Int32Array;
  readonly gain = new Float64Array(1);
  constructor(n: number) {
    this.neighW = new Float64Array(n);
    this.touched = new Int32Array(n);
  }
}

/** Weighted degree (row sum, self-loops once) of every node. */
export function degrees(g: WeightedGraph): Float64Array {
  const deg = new Float64Array(g.nNodes);
  for (let i = 0; i < g.nNodes; i++)
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) deg[i] += g.weights[p];
  return deg;
}

/**
 * Local moving phase from the partition in `membership` (updated in place; community ids must be
 * < nNodes). Returns whether any node changed community. With `pos` (community-order.ts: the
 * original node i is node pos[i] of `g`, and community
 * labels are renamed the same way), the order-dependent steps follow the original ids: the same
 * moves, bit for bit, as on the graph in its original order.
 */
export function moveNodes(
  g: WeightedGraph,
  membership: Int32Array,
  resolution: number,
  rng: ShuffleRandom,
  scratch: Scratch = new Scratch(g.nNodes),
  deg: Float64Array = degrees(g),
  pos?: Int32Array,
): boolean {
  const n = g.nNodes;
  const { indptr, indices, weights } = g;
  const total = totalDegree(deg, pos);
  if (total === 0) return false;
  const commDeg = new Float64Array(n);
  const commSize = new Int32Array(n);
  communityTotals(membership, deg, commDeg, commSize, pos);
  const free = new Int32Array(n);
  let nFree = 0;
  for (let c = n - 1; c >= 0; c--) {
    const label = pos ? pos[c] : c;
    if (commSize[label] === 0) free[nFree++] = label;
  }
  const queue = shuffledNodes(n, rng, pos);
  const inQueue = new Uint8Array(n).fill(1);
  let head = 0;
  let queued = n;
  const { neighW, touched, gain } = scratch;
  const scale = resolution / total;
  let changed = false;
  while (queued > 0) {
    const v = queue[head];
    head = head + 1 === n ? 0 : head + 1;
    queued--;
    inQueue[v] = 0;
    const own = membership[v];
    const dv = deg[v];
    const rowEnd = indptr[v + 1];
    let nt = 0;
    for (let p = indptr[v]; p < rowEnd; p++) {
      const u = indices[p];
      if (u === v) continue;
      const c = membership[u];
      if (neighW[c] === 0) touched[nt++] = c;
      neighW[c] += weights[p];
    }
    commDeg[own] -= dv;
    commSize[own]--;
    const ownGain = neighW[own] - scale * dv * commDeg[own];
    let best = bestCommunity(touched, nt, neighW, commDeg, scale * dv, own, ownGain, gain);
    let bestGain = gain[0];
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
    for (let p = indptr[v]; p < rowEnd; p++) {
      const u = indices[p];
      if (inQueue[u] || membership[u] === best) continue;
      inQueue[u] = 1;
      const tail = head + queued;
      queue[tail < n ? tail : tail - n] = u;
      queued++;
    }
  }
  return changed;
}

/**
 * Among the `nt` communities in `touched`, the one with the largest gain w_c − scaledDeg·K_c
 * (w = weight from the node, K = community degree without the node) if above `floorGain`, else
 * `floor`; its gain goes to `gainOut[0]` (no object per call in the hot loop). Clears the touched
 * entries of `neighW`.
 */
export function bestCommunity(
  touched: Int32Array,
  nt: number,
  neighW: Float64Array,
  commDeg: Float64Array,
  scaledDeg: number,
  floor: number,
  floorGain: number,
  gainOut: Float64Array,
): number {
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
  gainOut[0] = gain;
  return community;
}

/**
 * Renumbers ids in place to 0.. in order of first appearance; returns the number of ids. With
 * `pos`, the order is that of the original nodes (node pos[0], pos[1], …).
 */
export function renumberFirstSeen(ids: Int32Array, pos?: Int32Array): number {
  let max = -1;
  for (let i = 0; i < ids.length; i++) if (ids[i] > max) max = ids[i];
  const map = new Int32Array(max + 1).fill(-1);
  let k = 0;
  if (pos) {
    for (let i = 0; i < ids.length; i++) if (map[ids[pos[i]]] < 0) map[ids[pos[i]]] = k++;
    for (let v = 0; v < ids.length; v++) ids[v] = map[ids[v]];
    return k;
  }
  for (let i = 0; i < ids.length; i++) {
    if (map[ids[i]] < 0) map[ids[i]] = k++;
    ids[i] = map[ids[i]];
  }
  return k;
}

/** Σ deg in the original node order (node pos[0], pos[1], … with `pos`): the same float sum. */
export function totalDegree(deg: Float64Array, pos?: Int32Array): number {
  let total = 0;
  if (pos) for (let i = 0; i < deg.length; i++) total += deg[pos[i]];
  else for (let i = 0; i < deg.length; i++) total += deg[i];
  return total;
}

/** Degree and size of every community, summed in the original node order (see totalDegree). */
export function communityTotals(
  membership: Int32Array,
  deg: Float64Array,
  commDeg: Float64Array,
  commSize: Int32Array,
  pos?: Int32Array,
): void {
  for (let i = 0; i < membership.length; i++) {
    const v = pos ? pos[i] : i;
    commDeg[membership[v]] += deg[v];
    commSize[membership[v]]++;
  }
}

/** The seeded visiting order of the original nodes 0..n−1, as nodes of the renamed graph. */
export function shuffledNodes(n: number, rng: ShuffleRandom, pos?: Int32Array): Int32Array {
  const order = rng.shuffle(identity(n));
  if (pos) for (let t = 0; t < n; t++) order[t] = pos[order[t]];
  return order;
}

/**
 * The graph of communities: node c = community c (ids 0..k−1), A'_cd = Σ_{i∈c, j∈d} A_ij (so a
 * community's internal edges become a self-loop and degrees are preserved). Members are summed in
 * the original node order (node pos[0], pos[1], … with `pos`).
 */
export function aggregate(
  g: WeightedGraph,
  membership: Int32Array,
  k: number,
  pos?: Int32Array,
): WeightedGraph {
  const start = new Int32Array(k + 1);
  for (let i = 0; i < g.nNodes; i++) start[membership[i] + 1]++;
  for (let c = 0; c < k; c++) start[c + 1] += start[c];
  const fill = start.slice(0, k);
  const members = new Int32Array(g.nNodes);
  for (let i = 0; i < g.nNodes; i++) {
    const v = pos ? pos[i] : i;
    members[fill[membership[v]]++] = v;
  }
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
