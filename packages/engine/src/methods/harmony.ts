import { kmeans } from './kmeans';
import { solveDense } from './linalg';
import { Random } from './random';
import { checkLength, checkRange, denseLabels, rejectUnknownOptions } from './validate';

export interface HarmonyOptions {
  /** Diversity penalty per batch (default 2). */
  theta?: number;
  /** Ridge penalty of the correction (default 1). */
  lambda?: number;
  /** Soft k-means bandwidth (default 0.1). */
  sigma?: number;
  /** Number of clusters (default min(100, round(nCells / 30))). */
  nClusters?: number;
  /** Outer Harmony iterations (default 10). */
  maxIter?: number;
  /** Soft k-means iterations per outer iteration (default 20). */
  maxIterCluster?: number;
  epsilonCluster?: number;
  epsilonHarmony?: number;
  /** Fraction of cells updated per block in the R update (default 0.05). */
  blockSize?: number;
  seed?: number;
  onProgress?: (fraction: number, message: string) => void;
}

const OPTION_KEYS = [
  'theta',
  'lambda',
  'sigma',
  'nClusters',
  'maxIter',
  'maxIterCluster',
  'epsilonCluster',
  'epsilonHarmony',
  'blockSize',
  'seed',
  'onProgress',
] as const;

/**
 * Harmony batch correction (Korsunsky et al. 2019), following harmonypy / scanpy's
 * `harmony_integrate`: cosine-normalised soft k-means with the batch-diversity penalty, then a
 * per-cluster ridge-regression mixture-of-experts correction of the original embedding.
 *
 * @param pcs row-major nCells × nPcs embedding (usually PCA)
 * @param batch batch label per cell (any integers)
 * @returns the corrected embedding, row-major nCells × nPcs (scanpy's `X_pca_harmony`)
 */
export function harmony(
  pcs: Float32Array | Float64Array,
  nCells: number,
  nPcs: number,
  batch: Int32Array,
  opts: HarmonyOptions = {},
): Float32Array {
  const M = 'harmony';
  rejectUnknownOptions(M, opts, OPTION_KEYS);
  checkLength(M, 'pcs', pcs.length, nCells * nPcs);
  checkLength(M, 'batch', batch.length, nCells);
  const { codes, count: nBatches } = denseLabels(batch);
  if (nBatches < 2) return Float32Array.from(pcs);
  const theta = checkRange(M, 'theta', opts.theta ?? 2, 0, 1e6);
  const lambda = checkRange(M, 'lambda', opts.lambda ?? 1, 1e-12, 1e6);
  const sigma = checkRange(M, 'sigma', opts.sigma ?? 0.1, 1e-6, 1e6);
  const K = checkRange(
    M,
    'nClusters',
    opts.nClusters ?? Math.max(1, Math.min(100, Math.round(nCells / 30))),
    1,
    nCells,
    true,
  );
  const maxIter = checkRange(M, 'maxIter', opts.maxIter ?? 10, 1, 1000, true);
  const maxIterCluster = checkRange(M, 'maxIterCluster', opts.maxIterCluster ?? 20, 1, 1000, true);
  const epsCluster = opts.epsilonCluster ?? 1e-5;
  const epsHarmony = opts.epsilonHarmony ?? 1e-4;
  const blockSize = checkRange(M, 'blockSize', opts.blockSize ?? 0.05, 1e-6, 1);
  const seed = opts.seed ?? 0;
  const progress = opts.onProgress ?? (() => {});

  const N = nCells;
  const d = nPcs;
  const B = nBatches;
  const zOrig = Float64Array.from(pcs);
  const zCorr = Float64Array.from(pcs);
  const zCos = new Float64Array(N * d);
  cosineNormalize(zCorr, zCos, N, d);
  const prB = new Float64Array(B);
  for (let i = 0; i < N; i++) prB[codes[i]] += 1 / N;

  const state = new HarmonyState(N, d, K, B, codes, prB, theta, sigma);
  progress(0, 'harmony: initial clustering');
  const y = kmeans(zCos, N, d, K, { seed, maxIter: 10 }); // harmonypy: scipy kmeans, iter=10
  normalizeRows(y, K, d);
  state.y.set(y);
  state.computeDist(zCos);
  state.initR();
  const objKmeans: number[] = [state.objective()];
  const objHarmony: number[] = [objKmeans[0]];
  const rng = new Random(seed + 1);

  for (let it = 0; it < maxIter; it++) {
    progress(it / maxIter, `harmony: iteration ${it + 1}/${maxIter}`);
    for (let i = 0; i < maxIterCluster; i++) {
      state.updateCentroids(zCos);
      state.computeDist(zCos);
      state.updateR(rng, blockSize);
      objKmeans.push(state.objective());
      if (i > 3 && kmeansConverged(objKmeans, epsCluster)) break;
    }
    objHarmony.push(objKmeans[objKmeans.length - 1]);
    moeCorrectRidge(state, zOrig, zCorr, lambda);
    cosineNormalize(zCorr, zCos, N, d);
    const old = objHarmony[objHarmony.length - 2];
    const cur = objHarmony[objHarmony.length - 1];
    if ((old - cur) / Math.abs(old) < epsHarmony) break;
  }
  progress(1, 'harmony: done');
  return Float32Array.from(zCorr);
}

/** Soft-cluster state: centroids Y (K × d), responsibilities R and distances (N × K), E/O (K × B). */
class HarmonyState {
  readonly y: Float64Array;
  readonly r: Float64Array;
  readonly dist: Float64Array;
  readonly e: Float64Array;
  readonly o: Float64Array;
  private readonly scaled: Float64Array;

  constructor(
    readonly n: number,
    readonly d: number,
    readonly k: number,
    readonly b: number,
    readonly batch: Int32Array,
    readonly prB: Float64Array,
    readonly theta: number,
    readonly sigma: number,
  ) {
    this.y = new Float64Array(k * d);
    this.r = new Float64Array(n * k);
    this.dist = new Float64Array(n * k);
    this.scaled = new Float64Array(n * k);
    this.e = new Float64Array(k * b);
    this.o = new Float64Array(k * b);
  }

  /** dist[i,k] = 2 (1 - y_k · z_i) for unit vectors. */
  computeDist(zCos: Float64Array): void {
    const { n, d, k, y, dist } = this;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let j = 0; j < d; j++) dot += y[c * d + j] * zCos[i * d + j];
        dist[i * k + c] = 2 * (1 - dot);
      }
    }
  }

  initR(): void {
    const { n, k, r, dist, sigma } = this;
    for (let i = 0; i < n; i++) softmaxRow(dist, r, i * k, k, sigma);
    this.recomputeEO();
  }

  private recomputeEO(): void {
    const { n, k, b, r, e, o, batch, prB } = this;
    e.fill(0);
    o.fill(0);
    const colSum = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      const bi = batch[i];
      for (let c = 0; c < k; c++) {
        colSum[c] += r[i * k + c];
        o[c * b + bi] += r[i * k + c];
      }
    }
    for (let c = 0; c < k; c++) for (let s = 0; s < b; s++) e[c * b + s] = colSum[c] * prB[s];
  }

  /** y_k = normalise(Σ_i R_ik z_i). */
  updateCentroids(zCos: Float64Array): void {
    const { n, d, k, y, r } = this;
    y.fill(0);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) {
        const w = r[i * k + c];
        if (w === 0) continue;
        for (let j = 0; j < d; j++) y[c * d + j] += w * zCos[i * d + j];
      }
    }
    normalizeRows(y, k, d);
  }

  /** Block-wise responsibility update with the diversity penalty ((E+1)/(O+1))^theta. */
  updateR(rng: Random, blockSize: number): void {
    const { n, k, b, r, dist, scaled, e, o, batch, prB, theta, sigma } = this;
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let c = 0; c < k; c++) max = Math.max(max, -dist[i * k + c] / sigma);
      for (let c = 0; c < k; c++) scaled[i * k + c] = Math.exp(-dist[i * k + c] / sigma - max);
    }
    const order = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
    const nBlocks = Math.ceil(1 / blockSize);
    const blockSum = new Float64Array(k);
    const penalty = new Float64Array(k * b);
    for (let blk = 0; blk < nBlocks; blk++) {
      // numpy.array_split sizes: the first (n % nBlocks) blocks get one extra element
      const base = Math.floor(n / nBlocks);
      const extra = n % nBlocks;
      const start = blk * base + Math.min(blk, extra);
      const end = start + base + (blk < extra ? 1 : 0);
      if (end <= start) continue;
      blockSum.fill(0);
      for (let t = start; t < end; t++) {
        const i = order[t];
        for (let c = 0; c < k; c++) {
          blockSum[c] += r[i * k + c];
          o[c * b + batch[i]] -= r[i * k + c];
        }
      }
      for (let c = 0; c < k; c++) for (let s = 0; s < b; s++) e[c * b + s] -= blockSum[c] * prB[s];
      // the penalty depends only on (cluster, batch): one power per table entry per block
      for (let t = 0; t < k * b; t++) penalty[t] = Math.pow((e[t] + 1) / (o[t] + 1), theta);
      blockSum.fill(0);
      for (let t = start; t < end; t++) {
        const i = order[t];
        const bi = batch[i];
        let total = 0;
        for (let c = 0; c < k; c++) {
          const v = scaled[i * k + c] * penalty[c * b + bi];
          r[i * k + c] = v;
          total += v;
        }
        for (let c = 0; c < k; c++) {
          r[i * k + c] /= total;
          blockSum[c] += r[i * k + c];
          o[c * b + bi] += r[i * k + c];
        }
      }
      for (let c = 0; c < k; c++) for (let s = 0; s < b; s++) e[c * b + s] += blockSum[c] * prB[s];
    }
  }

  /** k-means error + sigma-weighted entropy + diversity cross-entropy (harmonypy's objective). */
  objective(): number {
    const { n, k, b, r, dist, e, o, batch, theta, sigma } = this;
    let kmeansError = 0;
    let entropy = 0;
    let cross = 0;
    const logRatio = new Float64Array(k * b);
    for (let t = 0; t < k * b; t++) logRatio[t] = Math.log((o[t] + 1) / (e[t] + 1));
    for (let i = 0; i < n; i++) {
      const bi = batch[i];
      for (let c = 0; c < k; c++) {
        const v = r[i * k + c];
        kmeansError += v * dist[i * k + c];
        if (v > 0) entropy += sigma * v * Math.log(v);
        cross += v * sigma * theta * logRatio[c * b + bi];
      }
    }
    return kmeansError + entropy + cross;
  }
}

/** Mixture-of-experts ridge correction: z_corr = z_orig − Σ_k R_k ∘ (batch-specific W_k). */
function moeCorrectRidge(
  state: HarmonyState,
  zOrig: Float64Array,
  zCorr: Float64Array,
  lambda: number,
): void {
  const { n, d, k, b, r, batch } = state;
  const p = b + 1;
  zCorr.set(zOrig);
  const x = new Float64Array(p * p);
  const rhs = new Float64Array(p * d);
  for (let c = 0; c < k; c++) {
    x.fill(0);
    rhs.fill(0);
    for (let i = 0; i < n; i++) {
      const w = r[i * k + c];
      if (w === 0) continue;
      const s = batch[i] + 1;
      x[0] += w;
      x[s] += w;
      x[s * p] += w;
      x[s * p + s] += w;
      for (let j = 0; j < d; j++) {
        const v = w * zOrig[i * d + j];
        rhs[j] += v;
        rhs[s * d + j] += v;
      }
    }
    for (let s = 1; s < p; s++) x[s * p + s] += lambda;
    const wMat = solveDense(x, rhs, p, d);
    for (let i = 0; i < n; i++) {
      const w = r[i * k + c];
      if (w === 0) continue;
      const s = batch[i] + 1; // row 0 (the intercept) is not removed
      for (let j = 0; j < d; j++) zCorr[i * d + j] -= w * wMat[s * d + j];
    }
  }
}

function kmeansConverged(obj: number[], eps: number): boolean {
  const len = obj.length;
  const window = 3;
  let oldSum = 0;
  let newSum = 0;
  for (let i = 0; i < window; i++) {
    oldSum += obj[len - 2 - i];
    newSum += obj[len - 1 - i];
  }
  return Math.abs(oldSum - newSum) / Math.abs(oldSum) < eps;
}

function softmaxRow(dist: Float64Array, out: Float64Array, offset: number, k: number, sigma: number): void {
  let max = -Infinity;
  for (let c = 0; c < k; c++) max = Math.max(max, -dist[offset + c] / sigma);
  let total = 0;
  for (let c = 0; c < k; c++) {
    const v = Math.exp(-dist[offset + c] / sigma - max);
    out[offset + c] = v;
    total += v;
  }
  for (let c = 0; c < k; c++) out[offset + c] /= total;
}

function cosineNormalize(src: Float64Array, dst: Float64Array, n: number, d: number): void {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += src[i * d + j] ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) dst[i * d + j] = src[i * d + j] * inv;
  }
}

function normalizeRows(m: Float64Array, rows: number, d: number): void {
  cosineNormalize(m, m, rows, d);
}
