// Test-only graphs with known communities for the fuzzy-graph / Louvain / Leiden tests.
import type { WeightedGraph } from '../../src/methods/fuzzy-graph';
import { Random } from '../../src/methods/random';

/** CSR graph from an undirected edge list (each edge given once; repeated edges add up). */
export function graphFromEdges(n: number, edges: [number, number, number?][]): WeightedGraph {
  const rows: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const [a, b, w = 1] of edges) {
    rows[a].set(b, (rows[a].get(b) ?? 0) + w);
    if (a !== b) rows[b].set(a, (rows[b].get(a) ?? 0) + w);
  }
  const indptr = new Int32Array(n + 1);
  rows.forEach((r, i) => (indptr[i + 1] = indptr[i] + r.size));
  const indices = new Int32Array(indptr[n]);
  const weights = new Float64Array(indptr[n]);
  rows.forEach((r, i) =>
    [...r.entries()]
      .sort((x, y) => x[0] - y[0])
      .forEach(([j, w], t) => {
        indices[indptr[i] + t] = j;
        weights[indptr[i] + t] = w;
      }),
  );
  return { nNodes: n, indptr, indices, weights };
}

/** `groups` cliques of `size` nodes; clique g's last node is joined to clique g+1's first (a ring when `ring`). */
export function cliques(
  groups: number,
  size: number,
  ring = false,
): { graph: WeightedGraph; truth: Int32Array } {
  const edges: [number, number][] = [];
  for (let g = 0; g < groups; g++) {
    for (let a = 0; a < size; a++)
      for (let b = a + 1; b < size; b++) edges.push([g * size + a, g * size + b]);
    if (g + 1 < groups || (ring && groups > 2)) edges.push([g * size + size - 1, ((g + 1) % groups) * size]);
  }
  return {
    graph: graphFromEdges(groups * size, edges),
    truth: Int32Array.from({ length: groups * size }, (_, i) => Math.floor(i / size)),
  };
}

/** Planted partition: `groups` groups of `size` nodes, edge probability pIn inside a group and pOut across. */
export function plantedPartition(
  groups: number,
  size: number,
  pIn: number,
  pOut: number,
  seed: number,
): { graph: WeightedGraph; truth: Int32Array } {
  const rng = new Random(seed);
  const n = groups * size;
  const truth = Int32Array.from({ length: n }, (_, i) => Math.floor(i / size));
  const edges: [number, number][] = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      if (rng.uniform() < (truth[a] === truth[b] ? pIn : pOut)) edges.push([a, b]);
  return { graph: graphFromEdges(n, edges), truth };
}

/** RB configuration quality Σ_c [w_in(c) − γ K_c² / 2m] / 2m, computed densely from the definition. */
export function rbQuality(g: WeightedGraph, membership: ArrayLike<number>, resolution: number): number {
  let total = 0;
  let inside = 0;
  const commDeg = new Map<number, number>();
  for (let i = 0; i < g.nNodes; i++) {
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
      total += g.weights[p];
      commDeg.set(membership[i], (commDeg.get(membership[i]) ?? 0) + g.weights[p]);
      if (membership[g.indices[p]] === membership[i]) inside += g.weights[p];
    }
  }
  let expected = 0;
  for (const k of commDeg.values()) expected += k * k;
  return (inside - (resolution * expected) / total) / total;
}

/** Whether every community induces a connected subgraph. */
export function communitiesConnected(g: WeightedGraph, membership: Int32Array): boolean {
  const seen = new Uint8Array(g.nNodes);
  const started = new Set<number>();
  for (let s = 0; s < g.nNodes; s++) {
    if (seen[s]) continue;
    if (started.has(membership[s])) return false; // a second component of an already-visited community
    started.add(membership[s]);
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const v = stack.pop() as number;
      for (let p = g.indptr[v]; p < g.indptr[v + 1]; p++) {
        const u = g.indices[p];
        if (!seen[u] && membership[u] === membership[s]) {
          seen[u] = 1;
          stack.push(u);
        }
      }
    }
  }
  return true;
}
