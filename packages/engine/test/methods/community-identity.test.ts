import { describe, expect, it } from 'vitest';
import { communityRestarts } from '../../src/methods/community-restarts';
import { fuzzyConnectivities, type WeightedGraph } from '../../src/methods/fuzzy-graph';
import { orderedGraph, relabelled, type OrderedGraph } from '../../src/methods/community-order';
import { leiden, leidenOrdered } from '../../src/methods/leiden';
import {
  aggregate,
  communityTotals,
  degrees,
  louvain,
  louvainOrdered,
  renumberFirstSeen,
  totalDegree,
} from '../../src/methods/louvain';
import { Random } from '../../src/methods/random';
import { ShuffleRandom } from '../../src/methods/shuffle-random';
import { referenceLeiden, referenceLouvain } from './community-reference';
import { cliques, graphFromEdges, plantedPartition } from './graph-fixtures';

// The optimized louvain / leiden against the code they replaced (community-reference.ts), which
// pins the memberships: same ids, bit for bit, on graphs with ties, disconnected parts, isolated
// nodes, self-loops, float weights and kNN structure, nodes in a random order.

/** `g` with node i renamed order[i] (rows re-sorted by column, as the fixtures store them). */
function shuffled(g: WeightedGraph, seed: number): WeightedGraph {
  const order = new Random(seed).shuffle(Int32Array.from({ length: g.nNodes }, (_, i) => i));
  const edges: [number, number, number][] = [];
  for (let i = 0; i < g.nNodes; i++)
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++)
      if (g.indices[p] >= i) edges.push([order[i], order[g.indices[p]], g.weights[p]]);
  return graphFromEdges(g.nNodes, edges);
}

/** Gaussian blobs in 5-D (uneven sizes, one far and small), brute-force 14-NN, fuzzy connectivities. */
function knnGraph(n: number, seed: number): WeightedGraph {
  const rng = new Random(seed);
  const centres = Array.from({ length: 7 }, (_, c) =>
    Array.from({ length: 5 }, () => (c === 6 ? 30 : 4) * rng.normal()),
  );
  const x = Array.from({ length: n }, () => {
    const c = Math.min(6, Math.floor(7 * rng.uniform() ** 1.5));
    return centres[c].map((m) => m + rng.normal());
  });
  const k = 14;
  const runs = new Int32Array(n).fill(k);
  const indices = new Int32Array(n * k);
  const distances = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const d = x.map((y, j) => [j, Math.hypot(...y.map((v, t) => v - x[i][t]))] as const);
    d.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const near = d.filter(([j]) => j !== i).slice(0, k);
    near.forEach(([j, dist], t) => {
      indices[i * k + t] = j;
      distances[i * k + t] = dist;
    });
  }
  return fuzzyConnectivities({ runs, indices, distances });
}

/**
 * Random sparse graph with float weights (`spread` 0: half of them 1; else e^(spread·N(0,1)), so
 * float sums depend on their order), self-loops and three disconnected parts + isolated nodes.
 */
function messyGraph(seed: number, spread = 0): WeightedGraph {
  const rng = new Random(seed);
  const edges: [number, number, number][] = [];
  const parts = [
    [0, 60],
    [60, 100],
    [100, 103],
  ];
  for (const [lo, hi] of parts)
    for (let e = 0; e < 4 * (hi - lo); e++) {
      const a = lo + rng.int(hi - lo);
      const b = lo + rng.int(hi - lo);
      const w = spread ? Math.exp(spread * rng.normal()) : rng.uniform() < 0.5 ? 1 : 0.1 + rng.uniform();
      edges.push([a, b, w]);
    }
  // nodes 103..107 isolated
  return shuffled(graphFromEdges(108, edges), seed + 1);
}

const graphs: [string, WeightedGraph][] = [
  ['ring of cliques (ties)', shuffled(cliques(12, 5, true).graph, 1)],
  ['two cliques (ties)', cliques(2, 6).graph],
  ['planted partition', shuffled(plantedPartition(6, 40, 0.15, 0.03, 11).graph, 2)],
  ['noisy planted partition', shuffled(plantedPartition(8, 30, 0.2, 0.04, 2).graph, 3)],
  ['messy graph', messyGraph(4)],
  ['messy graph 2', messyGraph(9)],
  ['messy graph, weights over 6 orders of magnitude', messyGraph(12, 3)],
  ['kNN graph (pbmc3k-like blobs)', knnGraph(700, 5)],
  ['edgeless', graphFromEdges(4, [])],
  [
    'self-loops only',
    graphFromEdges(3, [
      [0, 0, 2],
      [1, 1],
      [2, 2, 0.5],
    ]),
  ],
];

const same = (a: Int32Array, b: Int32Array) => expect(Array.from(a)).toEqual(Array.from(b));

describe('optimized community detection = the reference code, bit for bit', () => {
  it.each(graphs)('%s', (_, graph) => {
    // the graph as it comes, renamed in breadth-first order, renamed at random
    const random = new Random(3).shuffle(Int32Array.from({ length: graph.nNodes }, (_, i) => i));
    const orders: OrderedGraph[] = [{ graph }, orderedGraph(graph), relabelled(graph, random)];
    for (const resolution of [0.5, 1, 2.5])
      for (const seed of [0, 1, 7]) {
        const expected = referenceLeiden(graph, { resolution, seed, iterations: 5 });
        same(leiden(graph, { resolution, seed, iterations: 5 }), expected);
        for (const o of orders) same(leidenOrdered(o, { resolution, seed, iterations: 5 }), expected);
        const expectedLouvain = referenceLouvain(graph, { resolution, seed });
        same(louvain(graph, { resolution, seed }), expectedLouvain);
        for (const o of orders) same(louvainOrdered(o, { resolution, seed }), expectedLouvain);
      }
    same(leiden(graph), referenceLeiden(graph));
  });

  it('the renamed graph: the same total degree, aggregate and first-seen labels, bit for bit', () => {
    // weights over many orders of magnitude: a float sum in another order differs
    const graph = shuffled(plantedPartition(10, 60, 0.1, 0.01, 6).graph, 7);
    const rng = new Random(8);
    for (let p = 0; p < graph.weights.length; p++) graph.weights[p] = Math.exp(8 * rng.normal());
    // (weights no longer symmetric: only the sums' order matters here)
    const { graph: renamed, pos } = orderedGraph(graph);
    const n = graph.nNodes;
    expect(totalDegree(degrees(renamed), pos)).toBe(totalDegree(degrees(graph)));
    const membership = Int32Array.from({ length: n }, () => rng.int(40));
    const k = renumberFirstSeen(membership);
    const moved = new Int32Array(n);
    for (let i = 0; i < n; i++) moved[pos![i]] = membership[i];
    expect(renumberFirstSeen(moved, pos)).toBe(k);
    expect(Array.from(membership, (_, i) => moved[pos![i]])).toEqual(Array.from(membership));
    // community degrees (moveNodes from a partition): community c of the renamed graph is pos[c]
    const totals = (m: Int32Array, o?: Int32Array) => {
      const deg = new Float64Array(n);
      const size = new Int32Array(n);
      communityTotals(m, degrees(o ? renamed : graph), deg, size, o);
      return deg;
    };
    const movedLabels = moved.map((c) => pos![c]);
    const plain = totals(membership);
    const byPos = totals(movedLabels, pos);
    expect(Array.from(plain, (_, c) => byPos[pos![c]])).toEqual(Array.from(plain));
    const a = aggregate(graph, membership, k);
    const b = aggregate(renamed, moved, k, pos);
    expect(Array.from(b.indptr)).toEqual(Array.from(a.indptr));
    expect(Array.from(b.indices)).toEqual(Array.from(a.indices));
    expect(Array.from(b.weights)).toEqual(Array.from(a.weights));
  });

  it('ShuffleRandom shuffles as Random, draw for draw', () => {
    for (const seed of [0, 1, 7, -3, 2 ** 31 + 5])
      for (const n of [0, 1, 2, 5, 1000, 70_000]) {
        const a = new Random(seed);
        const b = new ShuffleRandom(seed);
        for (let round = 0; round < 3; round++)
          same(
            b.shuffle(Int32Array.from({ length: n }, (_, i) => i)),
            a.shuffle(Int32Array.from({ length: n }, (_, i) => i)),
          );
      }
  });

  it('the restarts (as steps/clusters.ts runs them) on 1 and 2 threads', async () => {
    const graph = knnGraph(500, 8);
    const opts = { resolution: 2, iterations: 5, seed: 0, restarts: 4 };
    const expected = Array.from({ length: 4 }, (_, r) => referenceLeiden(graph, { ...opts, seed: r }));
    // the seeds matter on this graph
    expect(new Set(expected.map((p) => p.join())).size).toBeGreaterThan(1);
    for (const threads of [1, 2]) {
      const runs = await communityRestarts(graph, { ...opts, algorithm: 'leiden', threads });
      runs.forEach((p, r) => same(p, expected[r]));
    }
  }, 60_000);
});
