import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * GRNBoost2-style importances (issue 18): for one target gene, stochastic gradient boosting of
 * regression trees on the TF expressions with arboreto's GRNBoost2 settings — squared error,
 * learning rate 0.01, up to 5000 stages, max_features 0.1, subsample 0.9, max_depth 3 (sklearn
 * GradientBoostingRegressor defaults otherwise: mean as the initial prediction, friedman_mse
 * split gain, leaves = mean residual) and arboreto's early stopping (stop after stage i when the
 * mean out-of-bag improvement of the last 25 stages is negative). Importance of a TF = sklearn's
 * `feature_importances_` (gain summed over the trees, normalised) × number of stages, as arboreto
 * reports it.
 *
 * Faster than sklearn's exact splitter in one documented way: split thresholds are searched over
 * ≤ `maxBins` quantile bins of each TF (bin 0 = zero expression, as most single-cell values are
 * zero), the histogram method of LightGBM / sklearn's HistGradientBoosting. Agreement with
 * sklearn's exact GRNBoost2 importances is measured by scripts/compare/grnboost2.ts.
 *
 * This file imports nothing of ours and uses erasable TypeScript only: grn.ts starts it directly
 * as a worker thread (entry at the bottom) to boost slices of the targets.
 */

/** xoshiro128** seeded through splitmix32 (the algorithm of methods/random, inlined for workers). */
function makeRng(seed: number): { int(n: number): number } {
  let x = seed >>> 0;
  const next = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = next();
  let s1 = next();
  let s2 = next();
  let s3 = next();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const rotl = (v: number, k: number) => ((v << k) | (v >>> (32 - k))) >>> 0;
  const u32 = (): number => {
    const r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return r;
  };
  return {
    int(n: number): number {
      const hi = u32() >>> 5;
      const lo = u32() >>> 6;
      return Math.floor(((hi * 67108864 + lo) / 9007199254740992) * n);
    },
  };
}

export interface GbmParams {
  learningRate: number;
  maxStages: number;
  maxFeatures: number;
  subsample: number;
  maxDepth: number;
  earlyStopWindow: number;
  maxBins: number;
}

export const GRNBOOST2: GbmParams = {
  learningRate: 0.01,
  maxStages: 5000,
  maxFeatures: 0.1,
  subsample: 0.9,
  maxDepth: 3,
  earlyStopWindow: 25,
  maxBins: 32,
};

/** Feature-major bins (nFeatures × nCells, Uint8): 0 for values ≤ 0, else 1.. by quantiles of the positive values. */
export function binFeatures(features: readonly Float32Array[], maxBins: number): Uint8Array {
  const n = features[0]?.length ?? 0;
  const out = new Uint8Array(features.length * n);
  features.forEach((v, f) => {
    const pos = Array.from(v)
      .filter((x) => x > 0)
      .sort((a, b) => a - b);
    const edges: number[] = [];
    const nb = Math.min(maxBins - 1, pos.length);
    for (let b = 1; b < nb; b++) {
      const e = pos[Math.floor((b * pos.length) / nb)]!;
      if (edges.length === 0 || e > edges[edges.length - 1]!) edges.push(e);
    }
    for (let i = 0; i < n; i++) {
      const x = v[i]!;
      if (!(x > 0)) continue;
      let lo = 0;
      let hi = edges.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x >= edges[mid]!) lo = mid + 1;
        else hi = mid;
      }
      out[f * n + i] = 1 + lo;
    }
  });
  return out;
}

export interface GbmResult {
  importances: Float64Array;
  stages: number;
}

/** Importances of every feature for target `y` (length nCells), features binned by binFeatures. */
export function boostImportances(
  bins: Uint8Array,
  nFeatures: number,
  y: ArrayLike<number>,
  params: GbmParams,
  seed: number,
  /** A feature never used (the target itself when it is a TF, as arboreto drops it). */
  exclude = -1,
): GbmResult {
  const n = y.length;
  const rng = makeRng(seed);
  const nBins = params.maxBins;
  const pred = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  mean /= n;
  pred.fill(mean);
  const resid = new Float64Array(n);
  const gain = new Float64Array(nFeatures);
  const nInbag = Math.max(1, Math.floor(params.subsample * n));
  const perSplit = Math.max(1, Math.floor(params.maxFeatures * nFeatures));
  const inbag = new Uint8Array(n);
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const featOrder = Int32Array.from({ length: nFeatures }, (_, f) => f);
  const cnt = new Float64Array(nBins);
  const sum = new Float64Array(nBins);
  // tree storage (≤ 2^(depth+1) nodes): split feature (-1 = leaf), bin, children, leaf value
  const maxNodes = 2 ** (params.maxDepth + 1);
  const nodeFeature = new Int32Array(maxNodes);
  const nodeBin = new Int32Array(maxNodes);
  const nodeValue = new Float64Array(maxNodes);
  const idx = new Int32Array(nInbag);
  const stack: [number, number, number, number][] = [];
  const oobImprovement: number[] = [];
  let stages = 0;
  for (let stage = 0; stage < params.maxStages; stage++) {
    // in-bag sample (sklearn _random_sample_mask: nInbag cells without replacement)
    inbag.fill(0);
    for (let i = 0; i < nInbag; i++) {
      const j = i + rng.int(n - i);
      const t = perm[i]!;
      perm[i] = perm[j]!;
      perm[j] = t;
      inbag[perm[i]!] = 1;
    }
    let oobBefore = 0;
    let nOob = 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      resid[i] = y[i]! - pred[i]!;
      if (inbag[i]) idx[m++] = i;
      else {
        oobBefore += resid[i]! * resid[i]!;
        nOob++;
      }
    }
    // depth-first growth over segments of idx: [start, end, depth, node id]
    nodeFeature.fill(-1);
    stack.length = 0;
    stack.push([0, nInbag, 0, 0]);
    while (stack.length) {
      const [start, end, depth, nd] = stack.pop()!;
      const size = end - start;
      let total = 0;
      for (let k = start; k < end; k++) total += resid[idx[k]!]!;
      nodeValue[nd] = size ? total / size : 0;
      if (depth >= params.maxDepth || size < 2) continue;
      const base = (total * total) / size;
      let best = 0;
      let bestF = -1;
      let bestBin = -1;
      for (let f = nFeatures - 1; f > 0; f--) {
        const j = rng.int(f + 1);
        const t = featOrder[f]!;
        featOrder[f] = featOrder[j]!;
        featOrder[j] = t;
      }
      // features in random order; at least `perSplit` non-constant ones are looked at
      let looked = 0;
      for (let fi = 0; fi < nFeatures && (looked < perSplit || bestF < 0); fi++) {
        const f = featOrder[fi]!;
        if (f === exclude) continue;
        cnt.fill(0);
        sum.fill(0);
        const o = f * n;
        let maxBin = 0;
        let minBin = nBins;
        for (let k = start; k < end; k++) {
          const i = idx[k]!;
          const b = bins[o + i]!;
          cnt[b]!++;
          sum[b]! += resid[i]!;
          if (b > maxBin) maxBin = b;
          if (b < minBin) minBin = b;
        }
        if (maxBin === minBin) continue; // constant in this node
        looked++;
        let cL = 0;
        let sL = 0;
        for (let b = minBin; b < maxBin; b++) {
          cL += cnt[b]!;
          sL += sum[b]!;
          if (cL === 0) continue;
          const cR = size - cL;
          if (cR === 0) break;
          const sR = total - sL;
          const g = (sL * sL) / cL + (sR * sR) / cR - base;
          if (g > best) {
            best = g;
            bestF = f;
            bestBin = b;
          }
        }
      }
      if (bestF < 0 || !(best > 0)) continue;
      gain[bestF]! += best;
      nodeFeature[nd] = bestF;
      nodeBin[nd] = bestBin;
      // partition the segment: left (bin ≤ bestBin) first
      const o = bestF * n;
      let lo = start;
      let hi = end - 1;
      while (lo <= hi) {
        if (bins[o + idx[lo]!]! <= bestBin) lo++;
        else {
          const t = idx[lo]!;
          idx[lo] = idx[hi]!;
          idx[hi] = t;
          hi--;
        }
      }
      stack.push([lo, end, depth + 1, 2 * nd + 2], [start, lo, depth + 1, 2 * nd + 1]);
    }
    // update every cell through the tree; OOB loss after the stage
    let oobAfter = 0;
    for (let i = 0; i < n; i++) {
      let nd = 0;
      while (nodeFeature[nd]! >= 0)
        nd = bins[nodeFeature[nd]! * n + i]! <= nodeBin[nd]! ? 2 * nd + 1 : 2 * nd + 2;
      pred[i]! += params.learningRate * nodeValue[nd]!;
      if (!inbag[i]) oobAfter += (y[i]! - pred[i]!) ** 2;
    }
    stages = stage + 1;
    oobImprovement.push(nOob ? (oobBefore - oobAfter) / nOob : 0);
    const w = params.earlyStopWindow;
    if (stage >= w - 1) {
      let mm = 0;
      for (let k = stage - w + 1; k <= stage; k++) mm += oobImprovement[k]!;
      if (mm / w < 0) break;
    }
  }
  let total = 0;
  for (const g of gain) total += g;
  const importances = new Float64Array(nFeatures);
  if (total > 0) for (let f = 0; f < nFeatures; f++) importances[f] = (gain[f]! / total) * stages;
  return { importances, stages };
}

/** Inputs of a worker slice (SharedArrayBuffer-backed arrays). */
export interface GrnSlice {
  bins: Uint8Array;
  nFeatures: number;
  nCells: number;
  /** Targets' values, target-major (nTargets × nCells). */
  targets: Float32Array;
  exclude: Int32Array;
  params: GbmParams;
  seed: number;
}

/** Importances of targets [from, to) (target-major × nFeatures); seeds seed + target index. */
export function boostSlice(s: GrnSlice, from: number, to: number, onTarget?: () => void): Float64Array {
  const out = new Float64Array((to - from) * s.nFeatures);
  for (let k = from; k < to; k++) {
    const y = s.targets.subarray(k * s.nCells, (k + 1) * s.nCells);
    const r = boostImportances(s.bins, s.nFeatures, y, s.params, s.seed + k, s.exclude[k]);
    out.set(r.importances, (k - from) * s.nFeatures);
    onTarget?.();
  }
  return out;
}

// Worker entry: grn.ts starts this file with { task: 'grn-boost', input } and posts { from, to }.
if (!isMainThread && workerData?.task === 'grn-boost' && parentPort) {
  const input = workerData.input as GrnSlice;
  const port = parentPort;
  port.on('message', (msg: { from: number; to: number }) => {
    const out = boostSlice(input, msg.from, msg.to, () => port.postMessage({ tick: 1 }));
    port.postMessage({ done: true, from: msg.from, out }, [out.buffer as ArrayBuffer]);
  });
}
