import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from '@cellcloud/engine/tasks/kit';

/**
 * Seurat `AddModuleScore` (Tirosh et al. 2016 as implemented in Seurat 4/5, docs/methods/cell-score.md): genes are
 * ordered by average expression over all cells and cut into `nBins` bins of equal size
 * (ggplot2::cut_number); for every gene of the set, `nControl` genes are drawn without
 * replacement from its bin; the control genes (union, unique) give the control mean. Score of a
 * cell = mean expression of the set − mean expression of the controls, on the matrix given
 * (log-normalized data; no re-normalization). Seeded (Seurat's default seed is 1).
 */
export function moduleScore(
  m: CountMatrix,
  set: readonly number[],
  opts: { nBins: number; nControl: number; seed: number },
): { scores: Float64Array; controls: number[] } {
  const { nGenes, nCells, indptr, indices, data } = m;
  const mean = new Float64Array(nGenes);
  const nnz = indptr[nCells]!;
  for (let k = 0; k < nnz; k++) mean[indices[k]!]! += data[k]!;
  const order = Array.from({ length: nGenes }, (_, g) => g).sort((a, b) => mean[a]! - mean[b]! || a - b);
  const bin = new Int32Array(nGenes);
  order.forEach((g, r) => (bin[g] = Math.min(opts.nBins - 1, Math.floor((r * opts.nBins) / nGenes))));
  const members: number[][] = Array.from({ length: opts.nBins }, () => []);
  for (const g of order) members[bin[g]!]!.push(g);
  const rng = new Random(opts.seed);
  const controls = new Set<number>();
  for (const g of set) {
    const pool = members[bin[g]!]!.slice();
    const take = Math.min(opts.nControl, pool.length);
    // partial Fisher–Yates: the first `take` entries become a sample without replacement
    for (let i = 0; i < take; i++) {
      const j = i + rng.int(pool.length - i);
      const t = pool[i]!;
      pool[i] = pool[j]!;
      pool[j] = t;
      controls.add(pool[i]!);
    }
  }
  const inSet = new Uint8Array(nGenes);
  for (const g of set) inSet[g] = 1;
  const inCtrl = new Uint8Array(nGenes);
  for (const g of controls) inCtrl[g] = 1;
  const nSet = set.length;
  const nCtrl = controls.size;
  const scores = new Float64Array(nCells);
  for (let c = 0; c < nCells; c++) {
    let s = 0;
    let ctl = 0;
    for (let k = indptr[c]!; k < indptr[c + 1]!; k++) {
      const g = indices[k]!;
      if (inSet[g]) s += data[k]!;
      if (inCtrl[g]) ctl += data[k]!;
    }
    scores[c] = s / nSet - (nCtrl ? ctl / nCtrl : 0);
  }
  return { scores, controls: [...controls].sort((a, b) => a - b) };
}

/**
 * UCell score (Andreatta & Carmona 2021, `AddModuleScore_UCell` defaults): per cell, genes are
 * ranked by expression, highest first (ties share their average rank); ranks above `maxRank`
 * become maxRank + 1 (unexpressed genes tie at the bottom, so they get maxRank + 1 whenever the
 * cell expresses fewer than maxRank genes). Score = 1 − (Σ rank − n(n+1)/2) / (n · maxRank),
 * the normalised Mann–Whitney U of the set's n genes; 1 = the set's genes are the top genes.
 */
export function ucellScore(m: CountMatrix, set: readonly number[], maxRank: number): Float64Array {
  const { nGenes, nCells, indptr, indices, data } = m;
  const n = set.length;
  const inSet = new Uint8Array(nGenes);
  for (const g of set) inSet[g] = 1;
  const scores = new Float64Array(nCells);
  const cap = maxRank + 1;
  let order = new Uint32Array(0);
  for (let c = 0; c < nCells; c++) {
    const lo = indptr[c]!;
    const hi = indptr[c + 1]!;
    let expressed = 0;
    for (let k = lo; k < hi; k++) if (data[k]! > 0) expressed++;
    if (order.length < hi - lo) order = new Uint32Array(hi - lo);
    let len = 0;
    for (let k = lo; k < hi; k++) if (data[k]! > 0) order[len++] = k;
    const view = order.subarray(0, len);
    view.sort((a, b) => data[b]! - data[a]!);
    let sum = 0;
    let found = 0;
    for (let i = 0; i < len;) {
      let j = i + 1;
      while (j < len && data[view[j]!] === data[view[i]!]) j++;
      const avg = (i + 1 + j) / 2; // ranks i+1 … j
      for (let t = i; t < j; t++) {
        if (inSet[indices[view[t]!]!]) {
          sum += Math.min(avg, cap);
          found++;
        }
      }
      i = j;
    }
    // unexpressed set genes share the bottom rank (expressed+1 … nGenes)
    const zeroRank = Math.min((expressed + 1 + nGenes) / 2, cap);
    sum += (n - found) * zeroRank;
    scores[c] = 1 - (sum - (n * (n + 1)) / 2) / (n * maxRank);
  }
  return scores;
}
