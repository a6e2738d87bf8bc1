/**
 * npx tsx scripts/bench/leiden.ts [nodes… = 100000 1000000] — one Leiden run of the clusters step
 * (methods/leiden.ts, resolution 0.5, 5 iterations, seed 0) on a kNN-like graph, timed for the code
 * before the locality / allocation work (`old`: test/methods/community-reference.ts, a verbatim
 * copy), today's leiden() on the graph as it comes (`new`) and today's on the breadth-first renamed
 * copy the restarts run on (`ordered`: methods/community-order.ts, community-restarts.ts; the
 * renaming's CPU s printed apart: it is made once for all restarts), with a check that all return
 * the same memberships bit for bit (issue 33).
 * The graph needs no neighbour search: 20 clusters of uneven sizes, each a jittered 2-D lattice whose
 * nodes list their 14 nearest lattice points (5 % of them swapped for a node of another cluster),
 * node ids in a random order (as cells come), through fuzzyConnectivities as in steps/clusters.ts.
 * Prints per size: the graph (nodes, stored edges, build CPU s), then for each side CPU seconds
 * (process.cpuUsage, user + sys), wall, the clusters found and the load average; at the end
 * whether the memberships are equal and the peak RSS. BENCH_LEIDEN_SIDES=ordered (a comma list of
 * old, new, ordered) runs those sides only (profiling: node --cpu-prof --import tsx …). Ends each
 * size with one JSON line.
 */
import { loadavg } from 'node:os';
import {
  fuzzyConnectivities,
  type KnnLists,
  type WeightedGraph,
} from '@cellcloud/engine/methods/fuzzy-graph';
import { orderedGraph } from '../../packages/engine/src/methods/community-order';
import { leiden, leidenOrdered } from '@cellcloud/engine/methods/leiden';
import { Random } from '@cellcloud/engine/methods/random';
import { referenceLeiden } from '../../packages/engine/test/methods/community-reference';

const sizes = process.argv.slice(2).map(Number);
const sides = (process.env.BENCH_LEIDEN_SIDES ?? 'old,new,ordered').split(',');
const NEIGHBOURS = 14;
const CLUSTERS = 20;

/** The kNN-like lists described above (distances ascending per node). */
export function clusteredNeighbours(n: number, seed: number): KnnLists {
  const rng = new Random(seed);
  // uneven cluster sizes, node ids shuffled
  const share = Array.from({ length: CLUSTERS }, () => 0.2 + rng.uniform());
  const sum = share.reduce((a, b) => a + b, 0);
  const bounds = [0];
  for (let c = 0; c < CLUSTERS; c++)
    bounds.push(c === CLUSTERS - 1 ? n : bounds[c] + Math.max(1, Math.round((share[c] / sum) * n)));
  const id = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  const offsets: [number, number, number][] = [];
  for (let dx = -3; dx <= 3; dx++)
    for (let dy = -3; dy <= 3; dy++) if (dx || dy) offsets.push([dx, dy, Math.hypot(dx, dy)]);
  const runs = new Int32Array(n).fill(NEIGHBOURS);
  const indices = new Int32Array(n * NEIGHBOURS);
  const distances = new Float64Array(n * NEIGHBOURS);
  const candIdx = new Int32Array(offsets.length);
  const candDist = new Float64Array(offsets.length);
  const order = Int32Array.from(offsets, (_, i) => i);
  for (let c = 0; c < CLUSTERS; c++) {
    const lo = bounds[c];
    const size = bounds[c + 1] - lo;
    const side = Math.ceil(Math.sqrt(size));
    for (let q = 0; q < size; q++) {
      const x = q % side;
      const y = Math.floor(q / side);
      let m = 0;
      for (const [dx, dy, d] of offsets) {
        const xx = x + dx;
        const yy = y + dy;
        const qq = yy * side + xx;
        if (xx < 0 || xx >= side || yy < 0 || qq >= size) continue;
        candIdx[m] = id[lo + qq];
        candDist[m++] = d * (0.8 + 0.4 * rng.uniform());
      }
      const o = order.subarray(0, m);
      for (let t = 0; t < m; t++) o[t] = t;
      o.sort((a, b) => candDist[a] - candDist[b]);
      const row = id[lo + q] * NEIGHBOURS;
      const k = Math.min(NEIGHBOURS, m);
      runs[id[lo + q]] = k;
      for (let t = 0; t < k; t++) {
        indices[row + t] = candIdx[o[t]];
        distances[row + t] = candDist[o[t]];
      }
      if (k === NEIGHBOURS && rng.uniform() < 0.05) {
        // a neighbour from elsewhere, farthest of the list
        indices[row + k - 1] = id[Math.floor(rng.uniform() * n)];
        distances[row + k - 1] = Math.max(distances[row + k - 1], 3.5);
      }
    }
  }
  // runs may be short at lattice corners: compact the lists
  let out = 0;
  for (let i = 0; i < n; i++)
    for (let t = 0; t < runs[i]; t++) {
      indices[out] = indices[i * NEIGHBOURS + t];
      distances[out++] = distances[i * NEIGHBOURS + t];
    }
  return { runs, indices: indices.slice(0, out), distances: distances.slice(0, out) };
}

const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function timed(name: string, graph: WeightedGraph, run: () => Int32Array) {
  const l0 = load();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const m = run();
  const cpu = cpuSince(c0);
  const wall = (performance.now() - t0) / 1000;
  const k = new Set(m).size;
  console.log(
    `  ${name}: ${cpu.toFixed(2)} CPU s, ${wall.toFixed(2)} s wall, ${k} clusters, load ${l0} → ${load()}`,
  );
  return { m, cpu, wall, k, nodes: graph.nNodes };
}

for (const n of sizes.length ? sizes : [100_000, 1_000_000]) {
  let c0 = process.cpuUsage();
  const graph = fuzzyConnectivities(clusteredNeighbours(n, 1), { nNeighbors: NEIGHBOURS + 1 });
  console.log(`${n} nodes, ${graph.indices.length} stored edges, built in ${cpuSince(c0).toFixed(2)} CPU s`);
  const opts = { resolution: 0.5, iterations: 5, seed: 0 };
  const result: Record<string, ReturnType<typeof timed>> = {};
  let orderCpu: number | undefined;
  for (const side of sides) {
    if (side === 'ordered') {
      c0 = process.cpuUsage();
      const ordered = orderedGraph(graph);
      orderCpu = cpuSince(c0);
      console.log(`  breadth-first renamed copy: ${orderCpu.toFixed(2)} CPU s (once per graph)`);
      result[side] = timed(side, graph, () => leidenOrdered(ordered, opts));
    } else {
      result[side] = timed(side, graph, () =>
        side === 'old' ? referenceLeiden(graph, opts) : leiden(graph, opts),
      );
    }
  }
  const runs = Object.values(result);
  const equal = runs.length > 1 ? runs.every((r) => r.m.every((c, i) => c === runs[0].m[i])) : undefined;
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(`  memberships equal: ${equal ?? 'n/a'}; peak RSS ${rssMiB.toFixed(0)} MiB`);
  console.log(
    JSON.stringify({
      nodes: n,
      edges: graph.indices.length,
      oldCpu: result.old?.cpu,
      newCpu: result.new?.cpu,
      orderedCpu: result.ordered?.cpu,
      orderCpu,
      oldWall: result.old?.wall,
      newWall: result.new?.wall,
      orderedWall: result.ordered?.wall,
      clusters: runs[0]?.k,
      equal,
      peakRssMiB: Math.round(rssMiB),
      load: loadavg(),
    }),
  );
  if (equal === false) process.exitCode = 1;
}
