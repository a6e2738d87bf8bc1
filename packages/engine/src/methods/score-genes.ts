import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from './random';
import { checkRange } from './validate';

export interface ScoreGenesOptions {
  /** control genes drawn per expression bin (default 50) */
  ctrlSize?: number;
  /** expression bins (default 25) */
  nBins?: number;
  seed?: number;
}

/**
 * Gene-set score per cell as scanpy's `score_genes`: mean expression of the set minus the mean of
 * control genes drawn (without the set's own genes) from the same average-expression bins.
 * `logNorm` is the log-normalised matrix (cells as columns); `genes` are gene row indices.
 */
export function scoreGenes(
  logNorm: CountMatrix,
  genes: readonly number[],
  opts: ScoreGenesOptions = {},
): Float32Array {
  const M = 'scoreGenes';
  const { nGenes, nCells, indptr, indices, data } = logNorm;
  const ctrlSize = checkRange(M, 'ctrlSize', opts.ctrlSize ?? 50, 1, 1e6, true);
  const nBins = checkRange(M, 'nBins', opts.nBins ?? 25, 2, 1e4, true);
  const geneSet = new Set(genes);
  if (geneSet.size === 0)
    throw new Error(`${M}: the gene list is empty after matching; check the gene symbols and the species`);
  const mean = new Float64Array(nGenes);
  for (let t = 0; t < data.length; t++) mean[indices[t]] += data[t] / nCells;
  // obs_cut = rank(method="min") // n_items
  const order = Array.from({ length: nGenes }, (_, g) => g).sort((a, b) => mean[a] - mean[b] || a - b);
  const nItems = Math.max(1, Math.round(nGenes / (nBins - 1)));
  const cut = new Int32Array(nGenes);
  let rankMin = 1;
  for (let r = 0; r < nGenes; r++) {
    if (r > 0 && mean[order[r]] !== mean[order[r - 1]]) rankMin = r + 1;
    cut[order[r]] = Math.floor(rankMin / nItems);
  }
  const byCut = new Map<number, number[]>();
  for (const g of order) {
    const list = byCut.get(cut[g]) ?? [];
    list.push(g);
    byCut.set(cut[g], list);
  }
  const rng = new Random(opts.seed ?? 0);
  const control = new Set<number>();
  const cuts = [...new Set([...geneSet].map((g) => cut[g]))].sort((a, b) => a - b);
  for (const c of cuts) {
    const pool = Int32Array.from(byCut.get(c) ?? []);
    rng.shuffle(pool);
    for (let i = 0; i < Math.min(ctrlSize, pool.length); i++) control.add(pool[i]);
  }
  for (const g of geneSet) control.delete(g);
  const inSet = new Uint8Array(nGenes);
  for (const g of geneSet) inSet[g] = 1;
  for (const g of control) inSet[g] = 2;
  const score = new Float32Array(nCells);
  const nSet = geneSet.size;
  const nCtrl = control.size;
  for (let c = 0; c < nCells; c++) {
    let s = 0;
    let k = 0;
    for (let t = indptr[c]; t < indptr[c + 1]; t++) {
      const f = inSet[indices[t]];
      if (f === 1) s += data[t];
      else if (f === 2) k += data[t];
    }
    score[c] = s / nSet - (nCtrl > 0 ? k / nCtrl : 0);
  }
  return score;
}
