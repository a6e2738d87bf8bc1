import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from '@cellcloud/engine/tasks/kit';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { categoricalLevel } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

/**
 * Pieces shared by the monocle2 and monocle3 tasks: cell selection, seeded downsampling, monocle's
 * size factors, minimum spanning trees, tree walks, shortest paths (statistics: ../trajectory/stats.ts).
 */

/** Re-exported for the tests and scripts that take it from here. */
export { spearman } from './stats';

export const SAMPLE_KEY = 'Sample ID';

/** Cells of the chosen groups (of `groupBy`) and samples, in result order, with their group labels. */
export function selectTrajectoryCells(
  result: ResultHandle,
  p: { groupBy: string; groups?: string[]; samples?: string[] },
  prefix: 'monocle2' | 'monocle3',
): { cells: number[]; labels: string[]; samples: string[] } {
  const labels = categoricalLevel(result, p.groupBy);
  const present = new Set(labels);
  for (const v of p.groups ?? []) {
    if (!present.has(v))
      throw new TaskError(`${prefix}.unknownGroup`, `"${p.groupBy}" has no group "${v}".`, {
        key: p.groupBy,
        value: v,
      });
  }
  let samples: string[];
  const sampleCol = result.obs(SAMPLE_KEY);
  if (sampleCol)
    samples = sampleCol.kind === 'categorical' ? sampleCol.values : Array.from(sampleCol.values, String);
  else if (p.samples)
    throw new TaskError(`${prefix}.samplesMissing`, 'This analysis has no "Sample ID" column.');
  else samples = new Array<string>(result.nCells).fill('sample');
  const wantG = p.groups ? new Set(p.groups) : undefined;
  const wantS = p.samples ? new Set(p.samples) : undefined;
  const cells: number[] = [];
  for (let c = 0; c < result.nCells; c++) {
    if (wantG && !wantG.has(labels[c]!)) continue;
    if (wantS && !wantS.has(samples[c]!)) continue;
    cells.push(c);
  }
  return { cells, labels, samples };
}

/** At most `perGroup` cells of every group, drawn without replacement (seeded); result sorted. */
export function downsamplePerGroup(
  cells: number[],
  labels: readonly string[],
  perGroup: number,
  seed: number,
): number[] {
  const byGroup = new Map<string, number[]>();
  for (const c of cells) {
    const l = labels[c]!;
    let a = byGroup.get(l);
    if (!a) byGroup.set(l, (a = []));
    a.push(c);
  }
  const rng = new Random(seed);
  const out: number[] = [];
  for (const members of byGroup.values()) {
    if (members.length <= perGroup) out.push(...members);
    else {
      const idx = rng.shuffle(Int32Array.from(members));
      for (let i = 0; i < perGroup; i++) out.push(idx[i]!);
    }
  }
  return out.sort((a, b) => a - b);
}

/** monocle's estimateSizeFactors ("mean-geometric-mean-total"): total / exp(mean(log(total))). */
export function sizeFactors(m: CountMatrix): Float64Array {
  const tot = new Float64Array(m.nCells);
  let logSum = 0;
  for (let c = 0; c < m.nCells; c++) {
    let s = 0;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++) s += Math.round(m.data[k]!);
    tot[c] = s;
    logSum += Math.log(Math.max(s, 1e-300));
  }
  const geo = Math.exp(logSum / Math.max(1, m.nCells));
  for (let c = 0; c < m.nCells; c++) tot[c] = tot[c]! / geo;
  return tot;
}

/** Prim's minimum spanning tree over n points given a distance function; returns the n − 1 edges. */
export function primMst(n: number, dist: (i: number, j: number) => number): [number, number][] {
  const inTree = new Uint8Array(n);
  const best = new Float64Array(n).fill(Infinity);
  const from = new Int32Array(n).fill(-1);
  const edges: [number, number][] = [];
  if (n === 0) return edges;
  let cur = 0;
  inTree[0] = 1;
  for (let step = 1; step < n; step++) {
    let next = -1;
    let nextD = Infinity;
    for (let j = 0; j < n; j++) {
      if (inTree[j]) continue;
      const d = dist(cur, j);
      if (d < best[j]!) {
        best[j] = d;
        from[j] = cur;
      }
      if (best[j]! < nextD) {
        nextD = best[j]!;
        next = j;
      }
    }
    if (next < 0) break;
    inTree[next] = 1;
    edges.push([from[next]!, next]);
    cur = next;
  }
  return edges;
}

/** Euclidean MST of row-major n × d points. */
export function pointsMst(points: ArrayLike<number>, n: number, d: number): [number, number][] {
  return primMst(n, (i, j) => {
    let s = 0;
    for (let k = 0; k < d; k++) {
      const t = points[i * d + k]! - points[j * d + k]!;
      s += t * t;
    }
    return s;
  });
}

export function adjacency(n: number, edges: readonly (readonly [number, number])[]): number[][] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) {
    adj[a]!.push(b);
    adj[b]!.push(a);
  }
  for (const a of adj) a.sort((x, y) => x - y);
  return adj;
}

/** igraph graph.dfs(root, mode = "all"): visiting order and father of every reached vertex (−1 for the root / unreached). */
export function dfs(adj: readonly number[][], root: number): { order: number[]; father: Int32Array } {
  const father = new Int32Array(adj.length).fill(-1);
  const seen = new Uint8Array(adj.length);
  const order: number[] = [];
  const stack: [number, number][] = [[root, 0]];
  seen[root] = 1;
  order.push(root);
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [v, i] = top;
    if (i >= adj[v]!.length) {
      stack.pop();
      continue;
    }
    top[1] = i + 1;
    const u = adj[v]![i]!;
    if (seen[u]) continue;
    seen[u] = 1;
    father[u] = v;
    order.push(u);
    stack.push([u, 0]);
  }
  return { order, father };
}

/** Unweighted BFS distances (−1 when unreachable). */
export function bfs(adj: readonly number[][], root: number): Int32Array {
  const d = new Int32Array(adj.length).fill(-1);
  d[root] = 0;
  const q = [root];
  for (let h = 0; h < q.length; h++) {
    const v = q[h]!;
    for (const u of adj[v]!) {
      if (d[u]! < 0) {
        d[u] = d[v]! + 1;
        q.push(u);
      }
    }
  }
  return d;
}

/** Weighted graph as adjacency lists with weights. */
export interface WGraph {
  n: number;
  nbr: number[][];
  w: number[][];
}

export function wGraph(n: number): WGraph {
  return { n, nbr: Array.from({ length: n }, () => []), w: Array.from({ length: n }, () => []) };
}

export function addEdge(g: WGraph, a: number, b: number, w: number): void {
  g.nbr[a]!.push(b);
  g.w[a]!.push(w);
  g.nbr[b]!.push(a);
  g.w[b]!.push(w);
}

/** Multi-source Dijkstra: distance of every vertex to the nearest source (Infinity when unreachable). */
export function dijkstra(g: WGraph, sources: readonly number[]): Float64Array {
  const dist = new Float64Array(g.n).fill(Infinity);
  const heap: number[] = [];
  const hd: number[] = [];
  const push = (v: number, d: number) => {
    heap.push(v);
    hd.push(d);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (hd[p]! <= hd[i]!) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      [hd[p], hd[i]] = [hd[i]!, hd[p]!];
      i = p;
    }
  };
  const pop = (): [number, number] => {
    const v = heap[0]!;
    const d = hd[0]!;
    const lv = heap.pop()!;
    const ld = hd.pop()!;
    if (heap.length) {
      heap[0] = lv;
      hd[0] = ld;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && hd[l]! < hd[m]!) m = l;
        if (r < heap.length && hd[r]! < hd[m]!) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        [hd[m], hd[i]] = [hd[i]!, hd[m]!];
        i = m;
      }
    }
    return [v, d];
  };
  for (const s of sources) {
    dist[s] = 0;
    push(s, 0);
  }
  while (heap.length) {
    const [v, d] = pop();
    if (d > dist[v]!) continue;
    const nb = g.nbr[v]!;
    const ww = g.w[v]!;
    for (let i = 0; i < nb.length; i++) {
      const nd = d + ww[i]!;
      if (nd < dist[nb[i]!]!) {
        dist[nb[i]!] = nd;
        push(nb[i]!, nd);
      }
    }
  }
  return dist;
}

/** Means of `values` in `nBins` equal-width bins of `t` over [min, max] (NaN when a bin is empty). */
export function binnedMeans(
  t: ArrayLike<number>,
  values: ArrayLike<number>,
  nBins: number,
): { centers: number[]; means: number[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < t.length; i++) {
    if (!Number.isFinite(t[i]!)) continue;
    lo = Math.min(lo, t[i]!);
    hi = Math.max(hi, t[i]!);
  }
  const w = hi > lo ? (hi - lo) / nBins : 1;
  const sum = new Float64Array(nBins);
  const cnt = new Float64Array(nBins);
  for (let i = 0; i < t.length; i++) {
    if (!Number.isFinite(t[i]!)) continue;
    const b = Math.min(nBins - 1, Math.floor((t[i]! - lo) / w));
    sum[b] += values[i]!;
    cnt[b]++;
  }
  return {
    centers: Array.from({ length: nBins }, (_, b) => lo + (b + 0.5) * w),
    means: Array.from({ length: nBins }, (_, b) => (cnt[b] ? sum[b]! / cnt[b]! : NaN)),
  };
}

export const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
