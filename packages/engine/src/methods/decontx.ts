import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from './random';
import { fitDirichlet } from './special';
import { checkLength, checkRange, denseLabels, rejectUnknownOptions } from './validate';

export interface DecontxOptions {
  /** EM iterations (default 500, as celda) */
  maxIter?: number;
  /** stop when no cell's theta moves more than this (default 0.001) */
  convergence?: number;
  /** Beta prior of the native proportion (default [10, 10]) */
  delta?: [number, number];
  /** re-estimate delta each iteration from the proportions (default true) */
  estimateDelta?: boolean;
  seed?: number;
  onProgress?: (fraction: number, message: string) => void;
}

export interface DecontxResult {
  /** estimated ambient-RNA fraction per cell (celda's `contamination`) */
  contamination: Float32Array;
  /** counts with the contamination removed, rounded (celda's decontXcounts, rounded as docs/methods/pipeline.md#ambient-rna) */
  decontaminated: CountMatrix;
  /** median contamination: the per-sample summary; above 0.25 the sample is flagged contaminated */
  median: number;
  iterations: number;
  delta: [number, number];
}

const KEYS = ['maxIter', 'convergence', 'delta', 'estimateDelta', 'seed', 'onProgress'] as const;
const PSEUDO = 1e-20;

/** Threshold on the median contamination above which a sample is reported as contaminated (SPEC). */
export const CONTAMINATED_MEDIAN = 0.25;

/**
 * DecontX (Yang et al. 2020) as celda::decontX with given cell clusters `z`: each cell's counts
 * are a mixture of its cluster's native profile φ_z (weight θ) and a contamination profile η_z
 * built from the other clusters' expression (weight 1 − θ); variational EM updates φ, η, θ and
 * the Beta prior δ (Dirichlet fit) until θ moves less than `convergence`.
 */
export function decontx(counts: CountMatrix, clusters: Int32Array, opts: DecontxOptions = {}): DecontxResult {
  const M = 'decontx';
  rejectUnknownOptions(M, opts, KEYS);
  const { nGenes: G, nCells: C, indptr, indices, data } = counts;
  checkLength(M, 'clusters', clusters.length, C);
  const maxIter = checkRange(M, 'maxIter', opts.maxIter ?? 500, 1, 100000, true);
  const convergence = checkRange(M, 'convergence', opts.convergence ?? 0.001, 0, 1);
  let delta: [number, number] = opts.delta ?? [10, 10];
  delta.forEach((v, i) => checkRange(M, `delta[${i}]`, v, 1e-9, 1e9));
  const estimateDelta = opts.estimateDelta ?? true;
  const progress = opts.onProgress ?? (() => {});
  const { codes: z, count: K } = denseLabels(clusters);
  if (K < 2)
    throw new Error(
      'decontx: all cells are in one cluster; decontamination needs at least 2 clusters (cluster the sample first)',
    );

  const colSum = new Float64Array(C);
  for (let c = 0; c < C; c++) for (let t = indptr[c]; t < indptr[c + 1]; t++) colSum[c] += data[t];
  const rng = new Random(opts.seed ?? 12345);
  let theta = Float64Array.from({ length: C }, () => rng.beta(delta[0], delta[1]));

  // initialisation (celda decontXInitialize): φ from θ-weighted counts, η = other clusters' φ
  let phi = new Float64Array(K * G).fill(PSEUDO);
  for (let c = 0; c < C; c++) {
    const k = z[c];
    for (let t = indptr[c]; t < indptr[c + 1]; t++) phi[k * G + indices[t]] += data[t] * theta[c];
  }
  let eta = etaFromPhi(phi, K, G);
  normalizeColumns(phi, K, G);
  normalizeColumns(eta, K, G);

  let contamination = new Float64Array(C);
  let iter = 0;
  for (iter = 1; iter <= maxIter; iter++) {
    const newPhi = new Float64Array(K * G);
    const nativeTotal = new Float64Array(C);
    for (let c = 0; c < C; c++) {
      const k = z[c];
      const th = theta[c];
      for (let t = indptr[c]; t < indptr[c + 1]; t++) {
        const g = indices[t];
        const pn = (phi[k * G + g] + PSEUDO) * (th + PSEUDO);
        const pc = (eta[k * G + g] + PSEUDO) * (1 - th + PSEUDO);
        const px = (pn / (pn + pc)) * data[t];
        newPhi[k * G + g] += px;
        nativeTotal[c] += px;
      }
    }
    const newEta = etaFromPhi(newPhi, K, G);
    normalizeColumns(newPhi, K, G);
    normalizeColumns(newEta, K, G);
    contamination = Float64Array.from(colSum, (s, c) => (s > 0 ? (s - nativeTotal[c]) / s : 0));
    if (estimateDelta) {
      const props = new Float64Array(C * 2);
      for (let c = 0; c < C; c++) {
        props[2 * c] = 1 - contamination[c];
        props[2 * c + 1] = contamination[c];
      }
      const a = fitDirichlet(props, C, 2);
      delta = [a[0], a[1]];
    }
    const newTheta = Float64Array.from(
      nativeTotal,
      (nt, c) => (nt + delta[0]) / (colSum[c] + delta[0] + delta[1]),
    );
    let maxDiv = 0;
    for (let c = 0; c < C; c++) maxDiv = Math.max(maxDiv, Math.abs(newTheta[c] - theta[c]));
    theta = newTheta;
    phi = newPhi;
    eta = newEta;
    if (iter % 10 === 0)
      progress(
        Math.min(0.95, iter / maxIter),
        `decontx: iteration ${iter}, max change ${maxDiv.toPrecision(3)}`,
      );
    if (maxDiv < convergence) break;
  }
  const decontaminated = nativeCounts(counts, z, theta, phi, eta);
  progress(1, 'decontx: done');
  const contaminationOut = Float32Array.from(contamination);
  return {
    contamination: contaminationOut,
    decontaminated,
    median: medianOf(contamination),
    iterations: Math.min(iter, maxIter),
    delta,
  };
}

/** η[k, g] = Σ_{k' ≠ k} φ[k', g] (before normalisation). */
function etaFromPhi(phi: Float64Array, K: number, G: number): Float64Array {
  const rowSum = new Float64Array(G);
  for (let k = 0; k < K; k++) for (let g = 0; g < G; g++) rowSum[g] += phi[k * G + g];
  const eta = new Float64Array(K * G);
  for (let k = 0; k < K; k++) for (let g = 0; g < G; g++) eta[k * G + g] = rowSum[g] - phi[k * G + g];
  return eta;
}

function normalizeColumns(m: Float64Array, K: number, G: number): void {
  for (let k = 0; k < K; k++) {
    let s = 0;
    for (let g = 0; g < G; g++) s += m[k * G + g];
    if (s > 0) for (let g = 0; g < G; g++) m[k * G + g] /= s;
  }
}

/** Expected native counts (celda calculateNativeMatrix), rounded half-to-even as R's round(); zeros dropped. */
function nativeCounts(
  counts: CountMatrix,
  z: Int32Array,
  theta: Float64Array,
  phi: Float64Array,
  eta: Float64Array,
): CountMatrix {
  const { nGenes: G, nCells: C, indptr, indices, data } = counts;
  const outPtr = new Float64Array(C + 1);
  const outIdx = new Uint32Array(indices.length);
  const outVal = new Float32Array(indices.length);
  let p = 0;
  for (let c = 0; c < C; c++) {
    const k = z[c];
    for (let t = indptr[c]; t < indptr[c + 1]; t++) {
      const g = indices[t];
      const pn = (phi[k * G + g] + PSEUDO) * (theta[c] + PSEUDO);
      const pc = (eta[k * G + g] + PSEUDO) * (1 - theta[c] + PSEUDO);
      const v = roundHalfEven((data[t] * pn) / (pn + pc));
      if (v > 0) {
        outIdx[p] = g;
        outVal[p++] = v;
      }
    }
    outPtr[c + 1] = p;
  }
  return { nGenes: G, nCells: C, indptr: outPtr, indices: outIdx.slice(0, p), data: outVal.slice(0, p) };
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function medianOf(x: Float64Array): number {
  if (x.length === 0) return NaN;
  const s = Float64Array.from(x).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
