import type { Dataset } from '@cellcloud/formats/matrix';
import { Random } from './methods/random';

/**
 * Synthetic UMI data with known clusters, for tests and the benchmark (no real data involved).
 *
 * Model: each cluster has a mean profile over genes (log-normal baseline shared by all clusters,
 * plus `markersPerCluster` genes raised 3–10× in that cluster only); each cell has a log-normal
 * library size. Counts are negative binomial (gamma–Poisson, shape `theta`) for the genes of the
 * cell's cluster whose expected count at the mean library size is ≥ 0.1 (at most 2,000); the
 * remaining low-mean genes are drawn as Poisson by splitting one Poisson total over them (NB with
 * μ ≪ θ is Poisson to within μ/θ, and this keeps generation O(UMIs), not O(cells × genes)).
 */
export interface SyntheticOptions {
  nCells: number;
  nGenes?: number;
  nClusters?: number;
  markersPerCluster?: number;
  meanUmi?: number;
  theta?: number;
  /** Seed of the cluster profiles (same seed = same clusters and markers). */
  seed?: number;
  /** Seed of the cells drawn from the profiles (default: derived from `seed`); vary it per sample. */
  cellSeed?: number;
}

export interface SyntheticData {
  dataset: Dataset;
  /** True cluster of each cell. */
  truth: Int32Array;
}

/** Walker alias table for sampling indices proportionally to weights. */
function aliasTable(w: Float64Array): { prob: Float64Array; alias: Int32Array } {
  const n = w.length;
  let total = 0;
  for (const x of w) total += x;
  const prob = Float64Array.from(w, (x) => (x * n) / total);
  const alias = new Int32Array(n);
  const small: number[] = [];
  const large: number[] = [];
  prob.forEach((p, i) => (p < 1 ? small : large).push(i));
  while (small.length && large.length) {
    const s = small.pop() as number;
    const l = large[large.length - 1];
    alias[s] = l;
    prob[l] -= 1 - prob[s];
    if (prob[l] < 1) small.push(large.pop() as number);
  }
  for (const i of [...small, ...large]) prob[i] = 1;
  return { prob, alias };
}

export function syntheticDataset(opts: SyntheticOptions): SyntheticData {
  const { nCells, nGenes = 20_000, nClusters = 10, markersPerCluster = 30, meanUmi = 3000, theta = 5 } = opts;
  const rng = new Random(opts.seed ?? 1);
  const base = Float64Array.from({ length: nGenes }, () => Math.exp(-9 + 2 * rng.normal()));
  const profiles = Array.from({ length: nClusters }, (_, k) => {
    const mu = base.slice();
    for (let j = 0; j < markersPerCluster; j++) {
      const g = 100 + k * markersPerCluster + j; // distinct marker genes per cluster
      mu[g] = Math.max(mu[g], 2e-4) * (3 + 7 * rng.uniform());
    }
    let s = 0;
    for (const x of mu) s += x;
    for (let g = 0; g < nGenes; g++) mu[g] /= s;
    const order = Array.from({ length: nGenes }, (_, g) => g).sort((a, b) => mu[b] - mu[a]);
    const high = Int32Array.from(order.slice(0, 2000).filter((g) => mu[g] * meanUmi >= 0.1));
    const lowW = mu.slice();
    for (const g of high) lowW[g] = 0;
    let lowSum = 0;
    for (const x of lowW) lowSum += x;
    return { mu, high, low: aliasTable(lowW), lowSum };
  });
  const cells = new Random(opts.cellSeed ?? (opts.seed ?? 1) + 1);
  // Cluster sizes vary 1:4 so that ARI sees small and large clusters.
  const weights = Array.from({ length: nClusters }, (_, k) => 1 + (3 * k) / Math.max(1, nClusters - 1));
  const wSum = weights.reduce((a, b) => a + b, 0);
  const truth = new Int32Array(nCells);
  for (let c = 0; c < nCells; c++) {
    let u = cells.uniform() * wSum;
    let k = 0;
    while (k < nClusters - 1 && (u -= weights[k]) > 0) k++;
    truth[c] = k;
  }
  const scratch = new Float32Array(nGenes);
  const touched: number[] = [];
  const indptr = new Float64Array(nCells + 1);
  let indices = new Uint32Array(nCells * 1200);
  let data = new Float32Array(nCells * 1200);
  let p = 0;
  const add = (g: number, v: number) => {
    if (v <= 0) return;
    if (scratch[g] === 0) touched.push(g);
    scratch[g] += v;
  };
  for (let c = 0; c < nCells; c++) {
    const prof = profiles[truth[c]];
    const lib = meanUmi * Math.exp(0.4 * cells.normal() - 0.08);
    for (const g of prof.high) add(g, cells.poisson((lib * prof.mu[g] * cells.gamma(theta)) / theta));
    const nLow = cells.poisson(lib * prof.lowSum);
    for (let i = 0; i < nLow; i++) {
      const r = cells.uniform() * nGenes;
      const j = Math.floor(r);
      add(r - j < prof.low.prob[j] ? j : prof.low.alias[j], 1);
    }
    touched.sort((a, b) => a - b);
    if (p + touched.length > indices.length) {
      const grow = Math.max(indices.length * 2, p + touched.length);
      const ni = new Uint32Array(grow);
      ni.set(indices);
      indices = ni;
      const nd = new Float32Array(grow);
      nd.set(data);
      data = nd;
    }
    for (const g of touched) {
      indices[p] = g;
      data[p++] = scratch[g];
      scratch[g] = 0;
    }
    touched.length = 0;
    indptr[c + 1] = p;
  }
  const ids = Array.from({ length: nGenes }, (_, g) => `SYN${String(g + 1).padStart(5, '0')}`);
  return {
    dataset: {
      counts: { nGenes, nCells, indptr, indices: indices.slice(0, p), data: data.slice(0, p) },
      genes: { ids, symbols: ids },
      cells: { barcodes: Array.from({ length: nCells }, (_, c) => `cell${c + 1}`), columns: {} },
      embeddings: {},
      format: '10x-mtx',
      warnings: [],
    },
    truth,
  };
}
