import type { CnvParams, CnvSummary } from '../contract';
import { kmeans } from '@cellcloud/engine/methods/kmeans';
import { Random } from '@cellcloud/engine/tasks/kit';

/**
 * Subclones of the observed cells, as inferCNV's heat map draws them: hierarchical clustering of the
 * cells' CNV profiles (Euclidean distance, hclust "ward.D2", the dendrogram cut into k groups →
 * `HCL_1..k`, numbered by first appearance as R's cutree does), or k-means (k-means++ seeded).
 * Profiles are the heat map bins (mean of consecutive genes on one chromosome). Above
 * `maxExact` cells a seeded subsample is clustered and every other cell joins the nearest cluster
 * mean, so the result is fixed for a seed.
 */
/**
 * `orderOut` (length n), when given, receives the dendrogram's leaf order (row indices left to
 * right, as the heat map draws the rows).
 */
export function wardClusters(
  x: Float32Array | Float64Array,
  n: number,
  d: number,
  k: number,
  orderOut?: Int32Array,
): Int32Array {
  const labels = new Int32Array(n);
  if (orderOut) for (let i = 0; i < n; i++) orderOut[i] = i;
  if (n <= 1) return labels;
  k = Math.max(1, Math.min(k, n));
  // condensed squared Euclidean distances
  const idx = (i: number, j: number) => (i < j ? (j * (j - 1)) / 2 + i : (i * (i - 1)) / 2 + j);
  const dist = new Float64Array((n * (n - 1)) / 2);
  for (let j = 1; j < n; j++) {
    for (let i = 0; i < j; i++) {
      let s = 0;
      const oi = i * d;
      const oj = j * d;
      for (let t = 0; t < d; t++) {
        const v = x[oi + t] - x[oj + t];
        s += v * v;
      }
      dist[idx(i, j)] = s;
    }
  }
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const merges: { a: number; b: number; h: number }[] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) {
      for (let i = 0; i < n; i++)
        if (active[i]) {
          chain.push(i);
          break;
        }
    }
    for (;;) {
      const a = chain[chain.length - 1];
      const prev = chain.length > 1 ? chain[chain.length - 2] : -1;
      let best = -1;
      let bestD = Infinity;
      for (let i = 0; i < n; i++) {
        if (!active[i] || i === a) continue;
        const v = dist[idx(a, i)];
        if (v < bestD || (v === bestD && i === prev)) {
          bestD = v;
          best = i;
        }
      }
      if (best === prev) {
        chain.pop();
        chain.pop();
        // merge a and prev into min index; Lance–Williams (Ward on squared distances)
        const keep = Math.min(a, prev);
        const drop = Math.max(a, prev);
        const na = size[a];
        const nb = size[prev];
        const dab = dist[idx(a, prev)];
        for (let i = 0; i < n; i++) {
          if (!active[i] || i === a || i === prev) continue;
          const ni = size[i];
          const v =
            ((na + ni) * dist[idx(a, i)] + (nb + ni) * dist[idx(prev, i)] - ni * dab) / (na + nb + ni);
          dist[idx(keep, i)] = v;
        }
        active[drop] = 0;
        size[keep] = na + nb;
        merges.push({ a: keep, b: drop, h: dab });
        remaining--;
        break;
      }
      chain.push(best);
    }
  }
  if (orderOut) {
    // replay the merges in the order they happened: a cluster's leaves = its two children's leaves
    const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
    let root = 0;
    for (const m of merges) {
      members[m.a] = members[m.a]!.concat(members[m.b]!);
      members[m.b] = [];
      root = m.a;
    }
    orderOut.set(members[root]!);
  }
  // cut: apply the n − k lowest merges (stable by height) with union-find
  const order = merges.map((_, i) => i).sort((p, q) => merges[p].h - merges[q].h || p - q);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (let m = 0; m < n - k; m++) {
    const { a, b } = merges[order[m]];
    parent[find(b)] = find(a);
  }
  return numberByFirstAppearance(Int32Array.from({ length: n }, (_, i) => find(i)));
}

function numberByFirstAppearance(raw: Int32Array): Int32Array {
  const map = new Map<number, number>();
  return raw.map((r) => {
    let v = map.get(r);
    if (v === undefined) map.set(r, (v = map.size));
    return v;
  });
}

export function kmeansClusters(x: Float32Array, n: number, d: number, k: number, seed: number): Int32Array {
  if (n <= 1 || k <= 1) return new Int32Array(n);
  k = Math.min(k, n);
  const pts = Float64Array.from(x.subarray(0, n * d));
  const centers = kmeans(pts, n, d, k, { seed, maxIter: 50 });
  return numberByFirstAppearance(nearest(x, n, d, centers, k));
}

function nearest(x: Float32Array, n: number, d: number, centers: Float64Array, k: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    let bestD = Infinity;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let t = 0; t < d; t++) {
        const v = x[i * d + t] - centers[c * d + t];
        s += v * v;
      }
      if (s < bestD) {
        bestD = s;
        best = c;
      }
    }
    out[i] = best;
  }
  return out;
}

/** Subclones of one set of cells (rows of `x`), HCL or k-means, capped at `maxExact` clustered rows. */
export function subclusterRows(
  x: Float32Array,
  n: number,
  d: number,
  opts: { method: 'hcl' | 'kmeans'; k: number; seed: number; maxExact?: number },
  orderOut?: Int32Array,
): Int32Array {
  const maxExact = opts.maxExact ?? 3000;
  if (orderOut) for (let i = 0; i < n; i++) orderOut[i] = i;
  if (n <= maxExact) {
    return opts.method === 'hcl'
      ? wardClusters(x, n, d, opts.k, orderOut)
      : kmeansClusters(x, n, d, opts.k, opts.seed);
  }
  const rng = new Random(opts.seed);
  const pick = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < maxExact; i++) {
    const j = i + rng.int(n - i);
    const t = pick[i];
    pick[i] = pick[j];
    pick[j] = t;
  }
  const sample = pick.subarray(0, maxExact).sort();
  const sx = new Float32Array(maxExact * d);
  sample.forEach((r, i) => sx.set(x.subarray(r * d, r * d + d), i * d));
  const lab =
    opts.method === 'hcl'
      ? wardClusters(sx, maxExact, d, opts.k)
      : kmeansClusters(sx, maxExact, d, opts.k, opts.seed);
  const k = lab.reduce((a, b) => Math.max(a, b), -1) + 1;
  const centers = new Float64Array(k * d);
  const counts = new Float64Array(k);
  sample.forEach((r, i) => {
    counts[lab[i]]++;
    for (let t = 0; t < d; t++) centers[lab[i] * d + t] += x[r * d + t];
  });
  for (let c = 0; c < k; c++) for (let t = 0; t < d; t++) centers[c * d + t] /= counts[c];
  const all = nearest(x, n, d, centers, k);
  sample.forEach((r, i) => (all[r] = lab[i]));
  return all;
}

/** Subclone labels of a CNV run's cells and each observed cell's place in its dendrogram. */
export interface CnvSubclones {
  /** Per cell position: the subclone label (reference cells: their type). */
  subcloneOfPos: string[];
  /** Position of each observed cell in its sample's dendrogram (heat-map row order within a subclone). */
  rowRank: Float64Array;
  /** Labels with their sample and size, sorted by sample then label. */
  list: CnvSummary['subclones'];
}

/**
 * Subclones of the observed cells (positions `nRef` … `cells.length − 1`) from their heat-map bins
 * `binVals` (`nBins` per position), per sample when `p.subclonePerSample`: labels
 * `[sample_]HCL_i` / `[sample_]KM_i`.
 */
export function cnvSubclones(
  input: {
    types: readonly string[];
    sampleOf: readonly string[];
    cells: Uint32Array;
    nRef: number;
    binVals: Float32Array;
    nBins: number;
  },
  p: Pick<CnvParams, 'subclonePerSample' | 'subcloneMethod' | 'subcloneK' | 'seed'>,
): CnvSubclones {
  const { types, sampleOf, cells, nRef, binVals, nBins } = input;
  const nA = cells.length;
  const subcloneOfPos = new Array<string>(nA);
  const rowRank = new Float64Array(nA);
  for (let i = 0; i < nRef; i++) subcloneOfPos[i] = types[cells[i]];
  const bySample = new Map<string, number[]>();
  for (let i = nRef; i < nA; i++) {
    const s = p.subclonePerSample ? sampleOf[cells[i]] : 'all';
    let a = bySample.get(s);
    if (!a) bySample.set(s, (a = []));
    a.push(i);
  }
  const multi = bySample.size > 1;
  const list: CnvSummary['subclones'] = [];
  for (const [s, rows] of [...bySample.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const x = new Float32Array(rows.length * nBins);
    rows.forEach((r, i) => x.set(binVals.subarray(r * nBins, (r + 1) * nBins), i * nBins));
    const leafOrder = new Int32Array(rows.length);
    const lab = subclusterRows(
      x,
      rows.length,
      nBins,
      { method: p.subcloneMethod, k: p.subcloneK, seed: p.seed },
      leafOrder,
    );
    leafOrder.forEach((r, rank) => (rowRank[rows[r]!] = rank));
    const prefix = multi ? `${s}_` : '';
    const tag = p.subcloneMethod === 'hcl' ? 'HCL' : 'KM';
    const counts = new Map<string, number>();
    rows.forEach((r, i) => {
      const l = `${prefix}${tag}_${lab[i] + 1}`;
      subcloneOfPos[r] = l;
      counts.set(l, (counts.get(l) ?? 0) + 1);
    });
    for (const [label, n] of [...counts.entries()].sort((a, b) =>
      a[0].localeCompare(b[0], undefined, { numeric: true }),
    )) {
      list.push({ label, sample: s, cells: n });
    }
  }
  return { subcloneOfPos, rowRank, list };
}
