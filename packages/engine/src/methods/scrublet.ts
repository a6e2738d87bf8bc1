import type { CountMatrix } from '@cellcloud/formats/matrix';
import { dispersionHvgFromSums } from '../stats/dispersion-hvg';
import { Random } from './random';
import { doubletNeighbors } from './scrublet-neighbors';
import { sparsePca } from './sparse-pca';
import { thresholdMinimum } from './threshold-minimum';
import { checkRange, rejectUnknownOptions } from './validate';

export interface ScrubletOptions {
  /** default 0.05 (docs/methods/pipeline.md#doublets); when no threshold is found the run is repeated with 0.25 */
  expectedDoubletRate?: number;
  simDoubletRatio?: number;
  /** default round(0.5·sqrt(nCells)) */
  nNeighbors?: number;
  nPcs?: number;
  seed?: number;
  /**
   * Independent doublet simulations whose scores are averaged (default SCRUBLET_SIMULATIONS);
   * their seeds are derived from `seed`. 1 = Scrublet's single simulation.
   */
  simulations?: number;
  /** repeat with expectedDoubletRate 0.25 when no automatic threshold is found (default true) */
  fallback?: boolean;
  /**
   * Run on these cells of `counts` only (e.g. one sample of a merged matrix) without copying them;
   * `scores` and `predicted` then follow this list. Default: all cells.
   */
  cells?: ArrayLike<number>;
  onProgress?: (fraction: number, message: string) => void;
}

export interface ScrubletResult {
  /** doublet score per observed cell (0 for cells with fewer than 3 detected genes) */
  scores: Float32Array;
  predicted: Uint8Array;
  /** NaN when no threshold could be found (then nothing is predicted) */
  threshold: number;
  /** scores of the simulated doublets (scanpy splits them into obs sim1/sim2) */
  simulatedScores: Float32Array;
  /** fraction of observed cells predicted as doublets (uns doublet_removal_info) */
  doubletRate: number;
  /** the expected doublet rate of the run that produced this result (0.05, or 0.25 after fallback) */
  expectedDoubletRate: number;
  thresholdFound: boolean;
}

/**
 * Independent doublet simulations averaged by default. One simulation lets the removal decision of
 * cells near the threshold hinge on which random pairs were drawn (pbmc3k: seeds 42 and 8 remove
 * different cells, which moves the clusters — docs/benchmarks/stability.md); the mean score over
 * several simulations and the threshold on all their simulated doublets vary far less
 * (docs/methods/pipeline.md#doublets).
 */
export const SCRUBLET_MAX_SIMULATIONS = 5;
/** Simulated doublets wanted in total: as many simulations as reach it, within 1…SCRUBLET_MAX_SIMULATIONS. */
export const SCRUBLET_MIN_SIMULATED = 25_000;

/** Simulations for `nSim` simulated doublets each: small samples get several, samples of ≥ 12,500 cells one. */
export function simulationsFor(nSim: number): number {
  return Math.max(
    1,
    Math.min(SCRUBLET_MAX_SIMULATIONS, Math.ceil(SCRUBLET_MIN_SIMULATED / Math.max(1, nSim))),
  );
}
/** Seed of the randomized PCA of the observed cells (its start only; constant, as the main PCA's). */
export const SCRUBLET_PCA_SEED = 0;

const KEYS = [
  'expectedDoubletRate',
  'simDoubletRatio',
  'nNeighbors',
  'nPcs',
  'seed',
  'simulations',
  'fallback',
  'cells',
  'onProgress',
] as const;

/**
 * Scrublet doublet detection (Wolock et al. 2019) as scanpy's `pp.scrublet` runs it on one sample
 * of raw counts: genes in ≥ 3 cells, seurat-flavour HVGs on log-normalised data, doublets
 * simulated by summing the raw HVG counts of random cell pairs, both sets scaled to 1e6 and
 * z-scored with the observed cells' statistics, PCA fitted on observed cells, kNN on observed +
 * simulated cells, Bayesian doublet score, and the threshold at the minimum between the two
 * modes of the simulated scores. Uses scran.js only for large kNN searches.
 *
 * Small samples run several independent simulations (`simulations`, default simulationsFor): the
 * PCA is fitted once, a cell's score is that of its mean fraction of simulated neighbours and the
 * threshold is found on all the simulated scores, so that the removal decision hinges less on
 * one draw of pairs (docs/methods/pipeline.md#doublets).
 */
export async function scrublet(counts: CountMatrix, opts: ScrubletOptions = {}): Promise<ScrubletResult> {
  rejectUnknownOptions('scrublet', opts, KEYS);
  const first = await scrubletOnce(counts, opts, opts.expectedDoubletRate ?? 0.05);
  if (first.thresholdFound || opts.fallback === false) return first;
  return scrubletOnce(counts, opts, 0.25);
}

async function scrubletOnce(
  counts: CountMatrix,
  opts: ScrubletOptions,
  rate: number,
): Promise<ScrubletResult> {
  const M = 'scrublet';
  checkRange(M, 'expectedDoubletRate', rate, 1e-6, 0.999);
  const ratio = checkRange(M, 'simDoubletRatio', opts.simDoubletRatio ?? 2, 0.1, 100);
  const nPcs = checkRange(M, 'nPcs', opts.nPcs ?? 30, 1, 500, true);
  const seed = opts.seed ?? 0;
  const progress = opts.onProgress ?? (() => {});

  // pp.filter_genes(min_cells=3), pp.filter_cells(min_genes=3) over the cells given
  const given = opts.cells ?? Int32Array.from({ length: counts.nCells }, (_, c) => c);
  const detected = new Int32Array(counts.nGenes);
  for (let i = 0; i < given.length; i++) {
    const c = given[i];
    for (let t = counts.indptr[c]; t < counts.indptr[c + 1]; t++)
      if (counts.data[t] > 0) detected[counts.indices[t]]++;
  }
  const geneOk = Uint8Array.from(detected, (n) => (n >= 3 ? 1 : 0));
  const cells: number[] = [];
  const position: number[] = []; // position of each kept cell in `given`
  for (let i = 0; i < given.length; i++) {
    const c = given[i];
    let n = 0;
    for (let t = counts.indptr[c]; t < counts.indptr[c + 1]; t++)
      if (geneOk[counts.indices[t]] && counts.data[t] > 0) n++;
    if (n >= 3) {
      cells.push(c);
      position.push(i);
    }
  }
  const nObs = cells.length;
  if (nObs < 30)
    throw new Error(
      `scrublet: only ${nObs} cells have 3 or more detected genes; doublet detection needs at least 30 cells per sample`,
    );
  const k = checkRange(
    M,
    'nNeighbors',
    opts.nNeighbors ?? Math.round(0.5 * Math.sqrt(nObs)),
    1,
    nObs - 1,
    true,
  );

  progress(0.05, 'scrublet: highly variable genes');
  const hvg = hvgMask(counts, cells, geneOk);
  const hvgIndex = new Int32Array(counts.nGenes).fill(-1);
  let nHvg = 0;
  for (let g = 0; g < counts.nGenes; g++) if (hvg[g]) hvgIndex[g] = nHvg++;
  if (nHvg < 2)
    throw new Error(
      'scrublet: fewer than 2 highly variable genes were found; the sample is too small or too uniform for doublet detection',
    );
  const obsRaw = restrict(counts, cells, hvgIndex, nHvg);

  const nSim = Math.floor(nObs * ratio);
  const nRuns = checkRange(M, 'simulations', opts.simulations ?? simulationsFor(nSim), 1, 100, true);
  const seeds = simulationSeeds(seed, nRuns);
  // one simulation: drawn before the observed counts are scaled in place (no copy); several:
  // the observed cells are scaled into a copy, their raw counts kept for the next simulations
  let firstSim: CountMatrix | undefined =
    nRuns === 1 ? simulateDoublets(obsRaw, nSim, new Random(seeds[0])) : undefined;
  const obs = scaleTo(obsRaw, 1e6, nRuns > 1);

  // the observed cells' z-scores and PCA do not depend on the simulations: fitted once, with a
  // constant start (the analysis seed reaches only the simulated pairs and the search's lists)
  progress(0.2, 'scrublet: PCA');
  const { mean, invSd } = zStats(obs);
  const genes = Int32Array.from({ length: nHvg }, (_, j) => j);
  const fit = sparsePca(obs, genes, nPcs, { center: mean, scale: invSd, seed: SCRUBLET_PCA_SEED });
  const d = fit.nPcs;
  const total = nObs + nSim;
  const kAdj = Math.min(total - 1, Math.round(k * (1 + nSim / nObs)));
  const r = nSim / nObs;
  const manifold = new Float32Array(total * d);
  manifold.set(fit.pcs, 0);
  // per observed cell the sum over the simulations of its fraction of simulated neighbours; every simulated doublet's own fraction
  const qObs = new Float64Array(nObs);
  const qSim = new Float64Array(nSim * nRuns);
  const countNeighbors = doubletNeighbors(total, d, kAdj, nObs);
  for (let run = 0; run < nRuns; run++) {
    const at = (f: number) => 0.3 + (0.65 * (run + f)) / nRuns;
    progress(at(0), `scrublet: simulating doublets (${run + 1} of ${nRuns})`);
    // doublets from the raw HVG counts, then scaled to 1e6 in place and projected
    let sim: CountMatrix | undefined = scaleTo(
      firstSim ?? simulateDoublets(obsRaw, nSim, new Random(seeds[run])),
      1e6,
    );
    firstSim = undefined;
    manifold.set(fit.project(sim), nObs * d);
    sim = undefined; // the simulated matrix is the largest temporary: let it go before the search
    progress(at(0.3), `scrublet: nearest neighbours (${run + 1} of ${nRuns})`);
    // simulated doublets among each point's kAdj neighbours, counted during the search
    const nDoublet = await countNeighbors(manifold, seeds[run]);
    for (let i = 0; i < total; i++) {
      const q = (nDoublet[i] + 1) / (kAdj + 2);
      if (i < nObs) qObs[i] += q;
      else qSim[run * nSim + i - nObs] = q;
    }
  }

  progress(0.95, 'scrublet: doublet scores');
  const toScore = (q: number) => (q * rate) / r / (1 - rate - q * (1 - rate - rate / r));
  // the score of the mean fraction (Scrublet's formula); the threshold on the pooled simulated scores
  const ld = Float64Array.from(qObs, (q) => toScore(q / nRuns));
  const simulatedScores = Float32Array.from(qSim, toScore);
  const threshold = thresholdMinimum(simulatedScores);
  const scores = new Float32Array(given.length);
  const predicted = new Uint8Array(given.length);
  let nPred = 0;
  position.forEach((c, i) => {
    scores[c] = ld[i];
    if (threshold !== undefined && ld[i] > threshold) {
      predicted[c] = 1;
      nPred++;
    }
  });
  progress(1, 'scrublet: done');
  return {
    scores,
    predicted,
    threshold: threshold ?? NaN,
    simulatedScores,
    doubletRate: threshold === undefined ? 0 : nPred / nObs,
    expectedDoubletRate: rate,
    thresholdFound: threshold !== undefined,
  };
}

/** scanpy highly_variable_genes (seurat flavour, min_mean 0.0125, max_mean 3, min_disp 0.5) on log1p(normalize_total). */
function hvgMask(counts: CountMatrix, cells: number[], geneOk: Uint8Array): Uint8Array {
  // normalize_total to the median total, then per-gene sums of the normalized values, read in
  // place (no restricted copy, no log1p → expm1 round trip: dispersionHvgFromSums takes them as is)
  const totals = new Float64Array(cells.length);
  cells.forEach((c, i) => {
    for (let t = counts.indptr[c]; t < counts.indptr[c + 1]; t++)
      if (geneOk[counts.indices[t]]) totals[i] += counts.data[t];
  });
  const target = medianOf(totals);
  const sum = new Float64Array(counts.nGenes);
  const sumSq = new Float64Array(counts.nGenes);
  cells.forEach((c, i) => {
    const f = totals[i] > 0 ? target / totals[i] : 0;
    for (let t = counts.indptr[c]; t < counts.indptr[c + 1]; t++) {
      const g = counts.indices[t];
      if (!geneOk[g]) continue;
      const v = counts.data[t] * f;
      sum[g] += v;
      sumSq[g] += v * v;
    }
  });
  const ok: number[] = [];
  for (let g = 0; g < counts.nGenes; g++) if (geneOk[g]) ok.push(g);
  const pick = (x: Float64Array) => Float64Array.from(ok, (g) => x[g]);
  const stats = dispersionHvgFromSums(pick(sum), pick(sumSq), cells.length, ok.length);
  const mask = new Uint8Array(counts.nGenes);
  ok.forEach((g, j) => {
    const m = stats.means[j];
    if (m > 0.0125 && m < 3 && stats.dispersionsNorm[j] > 0.5) mask[g] = 1;
  });
  return mask;
}

/** Cells `cells` and genes with index ≥ 0 in `geneIndex` (renumbered), raw values. */
function restrict(m: CountMatrix, cells: number[], geneIndex: Int32Array, nGenes: number): CountMatrix {
  // two passes (count, then fill) so that only the kept entries are ever allocated
  let nnz = 0;
  for (const c of cells)
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++)
      if (geneIndex[m.indices[t]] >= 0 && m.data[t] !== 0) nnz++;
  // shared memory: the PCA's sparse products read it from a worker thread too (sparse-products.ts)
  const indptr = new Float64Array(new SharedArrayBuffer((cells.length + 1) * 8));
  const indices = new Uint32Array(new SharedArrayBuffer(nnz * 4));
  const data = new Float32Array(new SharedArrayBuffer(nnz * 4));
  let p = 0;
  cells.forEach((c, i) => {
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) {
      const j = geneIndex[m.indices[t]];
      if (j >= 0 && m.data[t] !== 0) {
        indices[p] = j;
        data[p++] = m.data[t];
      }
    }
    indptr[i + 1] = p;
  });
  return { nGenes, nCells: cells.length, indptr, indices, data };
}

/** Doublets = sum of the raw counts of two random observed cells (pairs drawn with replacement). */
function simulateDoublets(obs: CountMatrix, nSim: number, rng: Random): CountMatrix {
  const pairs = new Int32Array(nSim * 2);
  let bound = 0;
  for (let s = 0; s < nSim * 2; s++) {
    pairs[s] = rng.int(obs.nCells);
    bound += obs.indptr[pairs[s] + 1] - obs.indptr[pairs[s]];
  }
  const indptr = new Float64Array(nSim + 1);
  const indices = new Uint32Array(bound);
  const data = new Float32Array(bound);
  let p = 0;
  for (let s = 0; s < nSim; s++) {
    const a = pairs[2 * s];
    const b = pairs[2 * s + 1];
    let i = obs.indptr[a];
    let j = obs.indptr[b];
    const ie = obs.indptr[a + 1];
    const je = obs.indptr[b + 1];
    while (i < ie || j < je) {
      const gi = i < ie ? obs.indices[i] : Infinity;
      const gj = j < je ? obs.indices[j] : Infinity;
      if (gi === gj) {
        indices[p] = gi;
        data[p++] = obs.data[i++] + obs.data[j++];
      } else if (gi < gj) {
        indices[p] = gi;
        data[p++] = obs.data[i++];
      } else {
        indices[p] = gj;
        data[p++] = obs.data[j++];
      }
    }
    indptr[s + 1] = p;
  }
  // views, not copies: the unused tail (genes shared by both cells) lives only as long as the matrix
  return {
    nGenes: obs.nGenes,
    nCells: nSim,
    indptr,
    indices: indices.subarray(0, p),
    data: data.subarray(0, p),
  };
}

/**
 * Scales each cell to `target` total: in place (the matrix is one of Scrublet's own temporaries),
 * or with `copy` into new values in shared memory (structure shared with `m`, whose raw counts the
 * next simulation needs).
 */
function scaleTo(m: CountMatrix, target: number, copy = false): CountMatrix {
  const totals = cellTotals(m);
  const data = copy ? new Float32Array(new SharedArrayBuffer(m.data.length * 4)) : m.data;
  for (let c = 0; c < m.nCells; c++) {
    const f = totals[c] > 0 ? target / totals[c] : 0;
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) data[t] = m.data[t] * f;
  }
  return copy ? { ...m, data } : m;
}

/**
 * Seeds of the simulations: the first is `seed` itself (one simulation is Scrublet's own run),
 * the others drawn from a generator seeded with it.
 */
function simulationSeeds(seed: number, n: number): number[] {
  const rng = new Random(seed);
  return Array.from({ length: n }, (_, i) => (i === 0 ? seed : rng.nextUint32()));
}

/** Per-gene mean and 1/sd (ddof = 0) over cells, as Scrublet's pipeline_zscore. */
function zStats(m: CountMatrix): { mean: Float64Array; invSd: Float64Array } {
  const sum = new Float64Array(m.nGenes);
  const sq = new Float64Array(m.nGenes);
  for (let t = 0; t < m.data.length; t++) {
    sum[m.indices[t]] += m.data[t];
    sq[m.indices[t]] += m.data[t] * m.data[t];
  }
  const mean = sum.map((s) => s / m.nCells);
  const invSd = sq.map((s, g) => {
    const v = s / m.nCells - mean[g] * mean[g];
    return v > 0 ? 1 / Math.sqrt(v) : 0;
  });
  return { mean, invSd };
}

function cellTotals(m: CountMatrix): Float64Array {
  const totals = new Float64Array(m.nCells);
  for (let c = 0; c < m.nCells; c++)
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) totals[c] += m.data[t];
  return totals;
}

function medianOf(x: Float64Array): number {
  const s = Float64Array.from(x).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
