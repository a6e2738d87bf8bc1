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
function makeRng(seed: number): { below(n: number): number } {
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
    /** One 32-bit draw scaled to [0, n) (bias < n / 2^32, negligible for cell and TF counts). */
    below(n: number): number {
      return Math.floor((u32() / 4294967296) * n);
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
  /**
   * How node histograms are built: from the node's cells ('dense'), from the feature's nonzero
   * cells ('sparse') or whichever is shorter ('auto', the default). The result is the same.
   */
  histogram?: 'auto' | 'dense' | 'sparse';
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

/** Nonzero bins of each feature (CSC): cells rows[colPtr[f]..colPtr[f+1]) with bins rowBins[…]. */
interface SparseBins {
  colPtr: Int32Array;
  rows: Int32Array;
  rowBins: Uint8Array;
}

// built once per bins array (shared by every target of a worker)
const sparseCache = new WeakMap<Uint8Array, SparseBins>();

function sparseBins(bins: Uint8Array, nFeatures: number, n: number): SparseBins {
  const hit = sparseCache.get(bins);
  if (hit) return hit;
  const colPtr = new Int32Array(nFeatures + 1);
  for (let f = 0; f < nFeatures; f++) {
    let c = 0;
    for (let i = f * n, e = i + n; i < e; i++) if (bins[i]) c++;
    colPtr[f + 1] = colPtr[f]! + c;
  }
  const rows = new Int32Array(colPtr[nFeatures]!);
  const rowBins = new Uint8Array(rows.length);
  for (let f = 0, k = 0; f < nFeatures; f++) {
    for (let i = 0; i < n; i++) {
      const b = bins[f * n + i]!;
      if (b) {
        rows[k] = i;
        rowBins[k++] = b;
      }
    }
  }
  const out = { colPtr, rows, rowBins };
  sparseCache.set(bins, out);
  return out;
}

/**
 * Importances of every feature for target `y` (length nCells), features binned by binFeatures.
 *
 * Trees grow level by level. A node's histogram of a feature is built from whichever is smaller:
 * the node's cells (dense bins) or the feature's nonzero cells (sparse, kept when the cell is in
 * the node); bin 0 (zero expression) is the node's remainder. Features are drawn per node as
 * sklearn's BestSplitter does: without replacement until `max_features` were visited, constant
 * ones included, and on until a non-constant one is found.
 */
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
  const { colPtr, rows, rowBins } = sparseBins(bins, nFeatures, n);
  const rng = makeRng(seed);
  const nBins = params.maxBins;
  const mode = params.histogram ?? 'auto';
  const pred = new Float64Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  mean /= n;
  pred.fill(mean);
  const resid = new Float64Array(n);
  const gain = new Float64Array(nFeatures);
  const nInbag = Math.max(1, Math.floor(params.subsample * n));
  // the pool of drawable features (the excluded one removed, as arboreto deletes its column)
  const pool = Int32Array.from({ length: nFeatures }, (_, f) => f).filter((f) => f !== exclude);
  const nPool = pool.length;
  const perSplit = Math.max(1, Math.floor(params.maxFeatures * nPool));
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const cnt = new Float64Array(nBins);
  const sum = new Float64Array(nBins);
  // tree (heap numbering, ≤ 2^(depth+1) nodes): split feature (-1 = leaf), bin, leaf value
  const maxNodes = 2 ** (params.maxDepth + 1);
  const nodeFeature = new Int32Array(maxNodes);
  const nodeBin = new Int32Array(maxNodes);
  const nodeValue = new Float64Array(maxNodes);
  const nodeStart = new Int32Array(maxNodes);
  const nodeEnd = new Int32Array(maxNodes);
  /** Node of each in-bag cell (its leaf once the tree is grown), -1 out of bag. */
  const nodeOf = new Int32Array(n);
  const idx = new Int32Array(nInbag);
  const oobImprovement: number[] = [];
  let level: number[] = [];
  let nextLevel: number[] = [];
  let stages = 0;
  for (let stage = 0; stage < params.maxStages; stage++) {
    // in-bag sample (sklearn _random_sample_mask: nInbag cells without replacement)
    nodeOf.fill(-1);
    for (let i = 0; i < nInbag; i++) {
      const j = i + rng.below(n - i);
      const t = perm[i]!;
      perm[i] = perm[j]!;
      perm[j] = t;
      nodeOf[perm[i]!] = 0;
    }
    let oobBefore = 0;
    let nOob = 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const r = y[i]! - pred[i]!;
      resid[i] = r;
      if (nodeOf[i] === 0) idx[m++] = i;
      else {
        oobBefore += r * r;
        nOob++;
      }
    }
    nodeFeature.fill(-1);
    nodeStart[0] = 0;
    nodeEnd[0] = nInbag;
    level.length = 0;
    level.push(0);
    for (let depth = 0; level.length; depth++) {
      nextLevel.length = 0;
      for (const nd of level) {
        const start = nodeStart[nd]!;
        const end = nodeEnd[nd]!;
        const size = end - start;
        let total = 0;
        for (let k = start; k < end; k++) total += resid[idx[k]!]!;
        nodeValue[nd] = size ? total / size : 0;
        if (depth >= params.maxDepth || size < 2) continue;
        const base = (total * total) / size;
        let best = 0;
        let bestF = -1;
        let bestBin = -1;
        let undrawn = nPool;
        let visited = 0;
        let constants = 0;
        while (undrawn > 0 && (visited < perSplit || visited <= constants)) {
          visited++;
          const j = rng.below(undrawn--);
          const f = pool[j]!;
          pool[j] = pool[undrawn]!;
          pool[undrawn] = f;
          cnt.fill(0);
          sum.fill(0);
          let nz = 0;
          let sz = 0;
          let lo = nBins;
          let hi = 0;
          const k0 = colPtr[f]!;
          const k1 = colPtr[f + 1]!;
          if (mode === 'sparse' || (mode === 'auto' && k1 - k0 < size)) {
            for (let k = k0; k < k1; k++) {
              const i = rows[k]!;
              if (nodeOf[i] !== nd) continue;
              const b = rowBins[k]!;
              cnt[b]!++;
              sum[b]! += resid[i]!;
            }
          } else {
            const o = f * n;
            for (let k = start; k < end; k++) {
              const i = idx[k]!;
              const b = bins[o + i]!;
              cnt[b]!++;
              sum[b]! += resid[i]!;
            }
          }
          for (let b = 1; b < nBins; b++) {
            if (!cnt[b]) continue;
            nz += cnt[b]!;
            sz += sum[b]!;
            if (b < lo) lo = b;
            hi = b;
          }
          if (nz < size) {
            cnt[0] = size - nz;
            sum[0] = total - sz;
            lo = 0;
          }
          if (lo >= hi) {
            constants++; // constant in this node
            continue;
          }
          let cL = 0;
          let sL = 0;
          for (let b = lo; b < hi; b++) {
            if (!cnt[b]) continue;
            cL += cnt[b]!;
            sL += sum[b]!;
            const cR = size - cL;
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
        // partition the segment: left (bin ≤ bestBin) first; cells learn their child
        const o = bestF * n;
        const left = 2 * nd + 1;
        const right = left + 1;
        let a = start;
        let z = end - 1;
        while (a <= z) {
          const i = idx[a]!;
          if (bins[o + i]! <= bestBin) {
            nodeOf[i] = left;
            a++;
          } else {
            nodeOf[i] = right;
            idx[a] = idx[z]!;
            idx[z] = i;
            z--;
          }
        }
        nodeStart[left] = start;
        nodeEnd[left] = a;
        nodeStart[right] = a;
        nodeEnd[right] = end;
        nextLevel.push(left, right);
      }
      [level, nextLevel] = [nextLevel, level];
    }
    // update every cell (in-bag cells know their leaf); OOB loss after the stage
    let oobAfter = 0;
    const lr = params.learningRate;
    for (let i = 0; i < n; i++) {
      let nd = nodeOf[i]!;
      if (nd >= 0) {
        pred[i]! += lr * nodeValue[nd]!;
        continue;
      }
      nd = 0;
      while (nodeFeature[nd]! >= 0)
        nd = bins[nodeFeature[nd]! * n + i]! <= nodeBin[nd]! ? 2 * nd + 1 : 2 * nd + 2;
      const p = pred[i]! + lr * nodeValue[nd]!;
      pred[i] = p;
      oobAfter += (y[i]! - p) ** 2;
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
