import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from '@cellcloud/engine/methods/random';

/**
 * SCENIC step-2 statistics (issue 18; docs/methods/regulons.md), written against pySCENIC 0.12 / ctxcore:
 * AUCell, regulon specificity scores, activity by cell type, the per-cell heat-map scaling, and
 * the CSI matrix with its modules (csi_index.R). Pure functions over typed arrays; the regulon
 * inference (step 1) feeds them.
 */

/** ctxcore `derive_rank_cutoff`: Python round (half to even) of threshold · genes, minus 1. */
export function aucRankCutoff(aucThreshold: number, totalGenes: number): number {
  const x = aucThreshold * totalGenes;
  let r = Math.round(x);
  if (Math.abs(x - Math.trunc(x)) === 0.5) r = 2 * Math.round(x / 2);
  if (r <= 0 || r > totalGenes - 1)
    throw new Error(`AUC threshold ${aucThreshold} gives ${r} of ${totalGenes} genes`);
  return r - 1;
}

export interface GeneSet {
  name: string;
  /** Gene indices (rows of the matrix); weights default to 1. */
  genes: number[];
  /** Genes the regulon names, present or not (pySCENIC's 80 % presence rule). */
  size: number;
}

/**
 * AUCell (pySCENIC `aucell` = `create_rankings` + ctxcore `aucs`) for cells × gene sets.
 * Rankings: genes in descending expression, ties in the order of one seeded shuffle of the genes
 * (pySCENIC shuffles the columns once, then ranks with method 'first'), 0-based. AUC of a set in
 * a cell: its genes ranked below `cutoff` sorted, x = those ranks then `cutoff`,
 * AUC = Σ diff(x) · (1, 2, …) / ((cutoff + 1) · |set ∩ genes|). A set with fewer than 80 % of
 * its genes in the matrix gets 0 everywhere. Returns cells × sets, row-major (cell-major).
 */
export function aucell(
  matrix: CountMatrix,
  cells: ArrayLike<number>,
  sets: GeneSet[],
  opts: { aucThreshold: number; seed: number },
): Float64Array {
  const nG = matrix.nGenes;
  const cutoff = aucRankCutoff(opts.aucThreshold, nG);
  const order = geneTieOrder(nG, opts.seed);
  const pos = new Int32Array(nG);
  order.forEach((g, p) => (pos[g] = p));
  const zerosInOrder = order; // zero genes take the next ranks in shuffled order
  const valid = sets.map((s) => s.genes.length > 0 && s.genes.length / Math.max(1, s.size) >= 0.8);
  const memberOf: number[][] = Array.from({ length: nG }, () => []);
  sets.forEach((s, k) => {
    if (valid[k]) for (const g of s.genes) memberOf[g]!.push(k);
  });
  const nS = sets.length;
  const out = new Float64Array(cells.length * nS);
  const ranked: number[] = [];
  const hits: number[][] = sets.map(() => []);
  for (let ci = 0; ci < cells.length; ci++) {
    const c = cells[ci]!;
    const nz: number[] = [];
    for (let k = matrix.indptr[c]!; k < matrix.indptr[c + 1]!; k++) if (matrix.data[k]! > 0) nz.push(k);
    nz.sort(
      (a, b) => matrix.data[b]! - matrix.data[a]! || pos[matrix.indices[a]!]! - pos[matrix.indices[b]!]!,
    );
    ranked.length = 0;
    for (let k = 0; k < nz.length && ranked.length < cutoff; k++) ranked.push(matrix.indices[nz[k]!]!);
    const isNz = new Set<number>();
    for (const k of nz) isNz.add(matrix.indices[k]!);
    for (let p = 0; p < nG && ranked.length < cutoff; p++) {
      const g = zerosInOrder[p]!;
      if (!isNz.has(g)) ranked.push(g);
    }
    for (const h of hits) h.length = 0;
    ranked.forEach((g, r) => {
      for (const k of memberOf[g]!) hits[k]!.push(r);
    });
    for (let k = 0; k < nS; k++) {
      if (!valid[k]) continue;
      const x = hits[k]!; // already ascending
      let auc = 0;
      for (let j = 0; j < x.length; j++) auc += ((j + 1 < x.length ? x[j + 1]! : cutoff) - x[j]!) * (j + 1);
      out[ci * nS + k] = auc / ((cutoff + 1) * sets[k]!.genes.length);
    }
  }
  return out;
}

/** The tie order of the rankings: genes after one seeded Fisher–Yates shuffle (gene indices in order). */
export function geneTieOrder(nGenes: number, seed: number): Int32Array {
  const order = Int32Array.from({ length: nGenes }, (_, g) => g);
  const rng = new Random(seed);
  for (let i = nGenes - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}

/** Kullback–Leibler terms with 0 · log(0 / x) = 0 (scipy rel_entr), natural log. */
function relEntr(p: number, q: number): number {
  return p === 0 ? 0 : p * Math.log(p / q);
}

/**
 * pySCENIC `regulon_specificity_scores`: RSS = 1 − Jensen–Shannon distance (scipy, natural log,
 * square root of the divergence) between the regulon's AUC distribution over cells and the cell
 * type's indicator distribution. Returns types × sets (type-major) for `typeNames` order.
 */
export function regulonSpecificity(
  auc: Float64Array,
  nCells: number,
  nSets: number,
  labels: readonly string[],
  typeNames: readonly string[],
): Float64Array {
  const out = new Float64Array(typeNames.length * nSets);
  typeNames.forEach((t, ti) => {
    const n = labels.reduce((s, l) => s + (l === t ? 1 : 0), 0);
    for (let k = 0; k < nSets; k++) {
      let total = 0;
      for (let c = 0; c < nCells; c++) total += auc[c * nSets + k]!;
      let js = 0;
      for (let c = 0; c < nCells; c++) {
        const p = total > 0 ? auc[c * nSets + k]! / total : 0;
        const q = labels[c] === t ? 1 / n : 0;
        const m = (p + q) / 2;
        js += (relEntr(p, m) + relEntr(q, m)) / 2;
      }
      out[ti * nSets + k] = 1 - Math.sqrt(Math.max(0, js));
    }
  });
  return out;
}

/**
 * Regulon activity by cell type (docs/methods/regulons.md item 3): mean AUC per type, then per regulon across
 * types R's `scale`: centred and divided by the SD (n − 1) with ≥ 3 types; with 2 types not
 * centred, divided by the root mean square (sum of squares / (n − 1)). Returns { means, scaled },
 * types × sets.
 */
export function activityByType(
  auc: Float64Array,
  nCells: number,
  nSets: number,
  labels: readonly string[],
  typeNames: readonly string[],
) {
  const nT = typeNames.length;
  const index = new Map(typeNames.map((t, i) => [t, i]));
  const means = new Float64Array(nT * nSets);
  const size = new Float64Array(nT);
  for (let c = 0; c < nCells; c++) {
    const t = index.get(labels[c]!);
    if (t === undefined) continue;
    size[t]!++;
    for (let k = 0; k < nSets; k++) means[t * nSets + k]! += auc[c * nSets + k]!;
  }
  for (let t = 0; t < nT; t++) for (let k = 0; k < nSets; k++) means[t * nSets + k]! /= size[t]! || 1;
  const scaled = new Float64Array(nT * nSets);
  for (let k = 0; k < nSets; k++) {
    const col = Array.from({ length: nT }, (_, t) => means[t * nSets + k]!);
    const centre = nT > 2 ? col.reduce((s, v) => s + v, 0) / nT : 0;
    const ss = col.reduce((s, v) => s + (v - centre) ** 2, 0) / Math.max(1, nT - 1);
    const sd = Math.sqrt(ss);
    for (let t = 0; t < nT; t++) scaled[t * nSets + k] = sd > 0 ? (col[t]! - centre) / sd : 0;
  }
  return { means, scaled };
}

/** Per-cell heat map values (docs/methods/regulons.md item 1): AUC z-scored per regulon across cells (SD n − 1), clipped to [−4, 4]. */
export function zscoreClipped(auc: Float64Array, nCells: number, nSets: number, clip = 4): Float64Array {
  const out = new Float64Array(auc.length);
  for (let k = 0; k < nSets; k++) {
    let mean = 0;
    for (let c = 0; c < nCells; c++) mean += auc[c * nSets + k]!;
    mean /= nCells;
    let ss = 0;
    for (let c = 0; c < nCells; c++) ss += (auc[c * nSets + k]! - mean) ** 2;
    const sd = Math.sqrt(ss / Math.max(1, nCells - 1));
    for (let c = 0; c < nCells; c++) {
      const z = sd > 0 ? (auc[c * nSets + k]! - mean) / sd : 0;
      out[c * nSets + k] = Math.max(-clip, Math.min(clip, z));
    }
  }
  return out;
}

/** Pearson correlation between the regulons' AUC vectors (sets × sets). */
export function regulonCorrelation(auc: Float64Array, nCells: number, nSets: number): Float64Array {
  const centred = new Float64Array(auc.length);
  const norm = new Float64Array(nSets);
  for (let k = 0; k < nSets; k++) {
    let mean = 0;
    for (let c = 0; c < nCells; c++) mean += auc[c * nSets + k]!;
    mean /= nCells;
    let ss = 0;
    for (let c = 0; c < nCells; c++) {
      const v = auc[c * nSets + k]! - mean;
      centred[c * nSets + k] = v;
      ss += v * v;
    }
    norm[k] = Math.sqrt(ss);
  }
  const out = new Float64Array(nSets * nSets);
  for (let a = 0; a < nSets; a++) {
    for (let b = a; b < nSets; b++) {
      let s = 0;
      for (let c = 0; c < nCells; c++) s += centred[c * nSets + a]! * centred[c * nSets + b]!;
      const r = norm[a]! > 0 && norm[b]! > 0 ? s / (norm[a]! * norm[b]!) : a === b ? 1 : 0;
      out[a * nSets + b] = r;
      out[b * nSets + a] = r;
    }
  }
  return out;
}

/**
 * Connection specificity index (csi_index.R, docs/methods/regulons.md): for A, B, the number of regulons m
 * whose PCC with A and whose PCC with B are both below PCC(A, B) − 0.05, divided by the number of
 * regulons (A and B included).
 */
export function csiMatrix(pcc: Float64Array, n: number, margin = 0.05): Float64Array {
  const out = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const cut = pcc[a * n + b]! - margin;
      let count = 0;
      for (let m = 0; m < n; m++) if (pcc[a * n + m]! < cut && pcc[b * n + m]! < cut) count++;
      out[a * n + b] = count / n;
    }
  }
  return out;
}

/**
 * Modules of the CSI matrix as pheatmap draws them: rows clustered with Euclidean distance and
 * complete linkage (R hclust), cut into k groups (R cutree: groups numbered 1..k in the order their
 * first member appears in the input). Ties in merge distance go to the lowest pair index.
 */
export function csiModules(csi: Float64Array, n: number, k = 6): number[] {
  if (n === 0) return [];
  const kk = Math.min(k, n);
  const dist = (a: number, b: number) => {
    let s = 0;
    for (let j = 0; j < n; j++) s += (csi[a * n + j]! - csi[b * n + j]!) ** 2;
    return Math.sqrt(s);
  };
  let clusters: number[][] = Array.from({ length: n }, (_, i) => [i]);
  const d = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (i === j ? 0 : dist(i, j))),
  );
  // complete linkage between clusters (recomputed from the point distances: n ≤ a few hundred)
  const link = (x: number[], y: number[]) => {
    let m = 0;
    for (const i of x) for (const j of y) if (d[i]![j]! > m) m = d[i]![j]!;
    return m;
  };
  while (clusters.length > kk) {
    let best = Infinity;
    let bi = 0;
    let bj = 1;
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const l = link(clusters[i]!, clusters[j]!);
        if (l < best) {
          best = l;
          bi = i;
          bj = j;
        }
      }
    }
    const merged = [...clusters[bi]!, ...clusters[bj]!];
    clusters = clusters.filter((_, i) => i !== bi && i !== bj);
    clusters.push(merged);
  }
  const of = new Array<number>(n).fill(0);
  clusters.forEach((members, ci) => members.forEach((i) => (of[i] = ci)));
  const renumber = new Map<number, number>();
  return of.map((c) => {
    if (!renumber.has(c)) renumber.set(c, renumber.size + 1);
    return renumber.get(c)!;
  });
}
