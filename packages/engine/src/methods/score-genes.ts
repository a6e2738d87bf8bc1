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
 * Gene-set scores per cell as scanpy's `score_genes`: mean expression of the set minus the mean of
 * control genes drawn (without the set's own genes) from the same average-expression bins, on the
 * log-normalised matrix (cells as columns; genes are gene row indices). In three parts so that a
 * matrix read in chunks of cells gives the same scores: the gene means (addGeneMeans, chunk after
 * chunk), the set and its controls (scoreGeneSets), the scores of each chunk's cells (scoreCells).
 */

/**
 * Adds the values of `m` (some or all cells of the matrix) divided by `nCells` (all its cells) to
 * each gene's mean: chunk after chunk in cell order, the same sums as over the whole matrix.
 */
export function addGeneMeans(mean: Float64Array, m: CountMatrix, nCells: number): void {
  const { indices, data } = m;
  const n = m.indptr[m.nCells];
  for (let t = 0; t < n; t++) mean[indices[t]] += data[t] / nCells;
}

/** A gene set and its control genes (scoreGeneSets): what each cell's score is computed from. */
export interface ScoreGeneSets {
  /** 1: in the set, 2: a control gene, 0: neither. */
  role: Uint8Array;
  nSet: number;
  nCtrl: number;
}

/** The gene set and its control genes drawn from the same average-expression bins. */
export function scoreGeneSets(
  mean: Float64Array,
  genes: readonly number[],
  opts: ScoreGenesOptions = {},
): ScoreGeneSets {
  const M = 'scoreGenes';
  const nGenes = mean.length;
  const ctrlSize = checkRange(M, 'ctrlSize', opts.ctrlSize ?? 50, 1, 1e6, true);
  const nBins = checkRange(M, 'nBins', opts.nBins ?? 25, 2, 1e4, true);
  const geneSet = new Set(genes);
  if (geneSet.size === 0)
    throw new Error(`${M}: the gene list is empty after matching; check the gene symbols and the species`);
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
  const role = new Uint8Array(nGenes);
  for (const g of geneSet) role[g] = 1;
  for (const g of control) role[g] = 2;
  return { role, nSet: geneSet.size, nCtrl: control.size };
}

/** The score of each cell of `m` (some cells of the matrix), written to `score` from `offset`. */
export function scoreCells(m: CountMatrix, sets: ScoreGeneSets, score: Float32Array, offset: number): void {
  const { indptr, indices, data } = m;
  const { role, nSet, nCtrl } = sets;
  for (let c = 0; c < m.nCells; c++) {
    let s = 0;
    let k = 0;
    for (let t = indptr[c]; t < indptr[c + 1]; t++) {
      const f = role[indices[t]];
      if (f === 1) s += data[t];
      else if (f === 2) k += data[t];
    }
    score[offset + c] = s / nSet - (nCtrl > 0 ? k / nCtrl : 0);
  }
}
