import type { CountMatrix } from '@cellcloud/formats/matrix';

/**
 * scType-like marker scoring (Ianevski et al. 2022, `sctype_score`): marker genes weighted by
 * specificity (1 for a gene marking one type, 0 for a gene marking every type, linear between),
 * expression z-scored per gene over the scored cells (clipped at 10 as Seurat's ScaleData), cell
 * score per type = Σ w·z(positive)/√n⁺ − Σ w·z(negative)/√n⁻; a group's score per type is the sum
 * over its cells, its call the best type, "Unknown" when that sum is below cells/4.
 */

export interface MarkerType {
  name: string;
  positive: string[];
  negative?: string[];
}

export interface ResolvedType {
  name: string;
  pos: number[];
  neg: number[];
}

/** Keeps the genes present in the dataset (geneIndex ≥ 0); drops types left without positive genes. */
export function resolveMarkerTypes(types: MarkerType[], geneIndex: (g: string) => number): ResolvedType[] {
  const uniq = (xs: string[] | undefined) => [...new Set((xs ?? []).map(geneIndex).filter((g) => g >= 0))];
  return types
    .map((t) => ({ name: t.name, pos: uniq(t.positive), neg: uniq(t.negative) }))
    .filter((t) => t.pos.length > 0);
}

export interface GroupScores {
  groups: string[];
  types: string[];
  /** groups × types, summed cell scores divided by the group's cell count (mean cell score). */
  mean: Float64Array;
  /** per group: best type (or "Unknown"), its summed score and cell count */
  call: { group: string; label: string; score: number; cells: number }[];
  /** per scored cell: best type index by its own score (−1 when no type scores above 0) */
  cellBest: Int32Array;
}

/**
 * Scores `cells` (indices into the normalized matrix) grouped by `groupOf[c]` (a group name per
 * scored cell, same order as `cells`).
 */
export function scoreMarkerTypes(
  norm: CountMatrix,
  cells: ArrayLike<number>,
  groupOf: readonly string[],
  types: ResolvedType[],
): GroupScores {
  const genes = [...new Set(types.flatMap((t) => [...t.pos, ...t.neg]))];
  const gpos = new Int32Array(norm.nGenes).fill(-1);
  genes.forEach((g, i) => (gpos[g] = i));
  const nG = genes.length;
  const n = cells.length;
  const sum = new Float64Array(nG);
  const sumSq = new Float64Array(nG);
  for (let i = 0; i < n; i++) {
    const c = cells[i]!;
    for (let p = norm.indptr[c]!; p < norm.indptr[c + 1]!; p++) {
      const k = gpos[norm.indices[p]!]!;
      if (k < 0) continue;
      const v = norm.data[p]!;
      sum[k]! += v;
      sumSq[k]! += v * v;
    }
  }
  const mean = new Float64Array(nG);
  const inv = new Float64Array(nG);
  for (let k = 0; k < nG; k++) {
    mean[k] = sum[k]! / Math.max(n, 1);
    const variance = n > 1 ? (sumSq[k]! - n * mean[k]! * mean[k]!) / (n - 1) : 0;
    inv[k] = variance > 0 ? 1 / Math.sqrt(variance) : 0;
  }
  // specificity weights over positive memberships
  const freq = new Float64Array(nG);
  for (const t of types) for (const g of t.pos) freq[gpos[g]!]! += 1;
  const nT = types.length;
  const weight = new Float64Array(nG);
  for (let k = 0; k < nG; k++) {
    weight[k] = nT > 1 ? Math.max(0, Math.min(1, (nT - freq[k]!) / (nT - 1))) : 1;
    if (freq[k] === 0) weight[k] = 1;
  }
  const z0 = new Float64Array(nG);
  for (let k = 0; k < nG; k++) z0[k] = Math.min(10, -mean[k]! * inv[k]!);
  // per type: gene positions with signed coefficient, and the all-zero-cell baseline
  const coef = types.map((t) => {
    const ks: number[] = [];
    const cs: number[] = [];
    let base = 0;
    const add = (list: number[], sign: number) => {
      if (!list.length) return;
      const f = sign / Math.sqrt(list.length);
      for (const g of list) {
        const k = gpos[g]!;
        ks.push(k);
        cs.push(f * weight[k]!);
        base += f * weight[k]! * z0[k]!;
      }
    };
    add(t.pos, 1);
    add(t.neg, -1);
    return { ks, cs, base };
  });
  // gene position → list of (type, coefficient)
  const byGene: { t: number; c: number }[][] = Array.from({ length: nG }, () => []);
  coef.forEach((co, t) => co.ks.forEach((k, j) => byGene[k]!.push({ t, c: co.cs[j]! })));
  const groups = [...new Set(groupOf)];
  const gIndex = new Map(groups.map((g, i) => [g, i]));
  const total = new Float64Array(groups.length * nT);
  const counts = new Float64Array(groups.length);
  const cellScore = new Float64Array(nT);
  const cellBest = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = cells[i]!;
    for (let t = 0; t < nT; t++) cellScore[t] = coef[t]!.base;
    for (let p = norm.indptr[c]!; p < norm.indptr[c + 1]!; p++) {
      const k = gpos[norm.indices[p]!]!;
      if (k < 0) continue;
      const z = Math.min(10, (norm.data[p]! - mean[k]!) * inv[k]!);
      const dz = z - z0[k]!;
      for (const e of byGene[k]!) cellScore[e.t]! += e.c * dz;
    }
    const gi = gIndex.get(groupOf[i]!)!;
    counts[gi]! += 1;
    let best = -1;
    for (let t = 0; t < nT; t++) {
      total[gi * nT + t]! += cellScore[t]!;
      if (cellScore[t]! > 0 && (best < 0 || cellScore[t]! > cellScore[best]!)) best = t;
    }
    cellBest[i] = best;
  }
  const meanScores = new Float64Array(total.length);
  const call = groups.map((group, gi) => {
    let best = 0;
    for (let t = 0; t < nT; t++) {
      meanScores[gi * nT + t] = total[gi * nT + t]! / Math.max(counts[gi]!, 1);
      if (total[gi * nT + t]! > total[gi * nT + best]!) best = t;
    }
    const score = nT ? total[gi * nT + best]! : 0;
    const label = nT && score >= counts[gi]! / 4 ? types[best]!.name : 'Unknown';
    return { group, label, score, cells: counts[gi]! };
  });
  return { groups, types: types.map((t) => t.name), mean: meanScores, call, cellBest };
}
