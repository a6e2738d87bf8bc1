/**
 * The medoid of several partitions of the same nodes: the one whose summed adjusted Rand index
 * with all the others is largest (ties: the earliest). Louvain and Leiden on a kNN graph of
 * single-cell data have many partitions of almost the same quality that differ in how they split
 * the large populations (pbmc3k: Leiden's restarts reach RB quality 0.864–0.869 with ARIs against
 * each other down to 0.7), so which one a single run returns hinges on its node order and on tiny
 * changes of the graph. The restart most others agree with is the structure the graph supports
 * most often: docs/methods/clustering.md. Deterministic: depends only on the partitions and their
 * order.
 */

/** Adjusted Rand index of two memberships with ids 0..ka−1 and 0..kb−1 (Hubert & Arabie 1985). */
export function membershipAri(a: Int32Array, b: Int32Array): number {
  if (a.length !== b.length) throw new Error(`membershipAri: ${a.length} vs ${b.length} nodes`);
  let ka = 0;
  let kb = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] >= ka) ka = a[i] + 1;
    if (b[i] >= kb) kb = b[i] + 1;
  }
  const rowSum = new Float64Array(ka);
  const colSum = new Float64Array(kb);
  // dense contingency table when small (the usual case: tens of clusters), else a map
  const dense = ka * kb <= 1 << 22 ? new Float64Array(ka * kb) : undefined;
  const sparse = dense ? undefined : new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    rowSum[a[i]]++;
    colSum[b[i]]++;
    if (dense) dense[a[i] * kb + b[i]]++;
    else sparse!.set(a[i] * kb + b[i], (sparse!.get(a[i] * kb + b[i]) ?? 0) + 1);
  }
  const c2 = (n: number) => (n * (n - 1)) / 2;
  let index = 0;
  for (const v of dense ?? sparse!.values()) index += c2(v);
  let sa = 0;
  for (const v of rowSum) sa += c2(v);
  let sb = 0;
  for (const v of colSum) sb += c2(v);
  const expected = (sa * sb) / c2(a.length);
  const max = (sa + sb) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

/** Index of the medoid partition (largest summed ARI with the others; the earliest on a tie). */
export function medoidPartition(partitions: Int32Array[]): number {
  if (partitions.length === 0) throw new Error('medoidPartition: no partitions');
  const n = partitions.length;
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const ari = membershipAri(partitions[i], partitions[j]);
      score[i] += ari;
      score[j] += ari;
    }
  let best = 0;
  for (let i = 1; i < n; i++) if (score[i] > score[best]) best = i;
  return best;
}
