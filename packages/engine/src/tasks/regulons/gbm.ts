import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { BinnedFeatures, GbmParams } from './binning';

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
 * This file imports only types of ours and uses erasable TypeScript only: grn.ts starts it
 * directly as a worker thread (entry at the bottom) to boost slices of the targets.
 */

const rotl = (v: number, k: number) => ((v << k) | (v >>> (32 - k))) >>> 0;

/** One xoshiro128** step on the state s (4 words). */
function xoshiro(s: Uint32Array): number {
  const s0 = s[0]!;
  const s1 = s[1]!;
  const s2 = s[2]! ^ s0;
  const s3 = s[3]! ^ s1;
  s[0] = s0 ^ s3;
  s[1] = s1 ^ s2;
  s[2] = s2 ^ (s1 << 9);
  s[3] = rotl(s3, 11);
  return Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
}

interface Rng {
  /** One 32-bit draw scaled to [0, n) (bias < n / 2^32, negligible for cell and TF counts). */
  below(n: number): number;
  /** Partial Fisher–Yates: a[0..k) become k draws without replacement (a[i] ↔ a[i + below(n − i)]). */
  shuffleHead(a: Int32Array, k: number): void;
}

/** xoshiro128** seeded through splitmix32 (the algorithm of methods/random, inlined for workers). */
function makeRng(seed: number): Rng {
  let x = seed >>> 0;
  const next = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = Uint32Array.of(next(), next(), next(), next());
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  return {
    below: (n) => Math.floor((xoshiro(s) / 4294967296) * n),
    shuffleHead(a, k) {
      const n = a.length;
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor((xoshiro(s) / 4294967296) * (n - i));
        const t = a[j]!;
        a[j] = a[i]!;
        a[i] = t;
      }
    },
  };
}

export interface GbmResult {
  importances: Float64Array;
  stages: number;
}

/** Zeroes the histogram block [b0, b0 + len) and adds the entries [k0, k1) at each cell's slot. */
function sparsePass(
  entries: Int32Array,
  k0: number,
  k1: number,
  slotOf: Int32Array,
  resid: Float64Array,
  hCnt: Float64Array,
  hSum: Float64Array,
  b0: number,
  len: number,
): void {
  hCnt.fill(0, b0, b0 + len);
  hSum.fill(0, b0, b0 + len);
  for (let k = k0; k < k1; k++) {
    const e = entries[k]!;
    const i = e >>> 8;
    const h = b0 + slotOf[i]! + (e & 255);
    hCnt[h]!++;
    hSum[h]! += resid[i]!;
  }
}

/** The histogram at o (nBins) of the cells idx[start..end) in feature row fo of `bins`. */
function densePass(
  bins: Uint8Array,
  fo: number,
  idx: Int32Array,
  start: number,
  end: number,
  resid: Float64Array,
  hCnt: Float64Array,
  hSum: Float64Array,
  o: number,
  nBins: number,
): void {
  hCnt.fill(0, o, o + nBins);
  hSum.fill(0, o, o + nBins);
  for (let k = start; k < end; k++) {
    const i = idx[k]!;
    const h = o + bins[fo + i]!;
    hCnt[h]!++;
    hSum[h]! += resid[i]!;
  }
}

/**
 * Best threshold of a node's histogram at o (bins ≥ 1 read; bin 0 = the node's remainder): the
 * bin b (left = bins ≤ b) of the first largest friedman_mse gain, stored in out[0]; -1 when the
 * feature is constant in the node.
 */
function bestBinOf(
  hCnt: Float64Array,
  hSum: Float64Array,
  o: number,
  nBins: number,
  size: number,
  total: number,
  out: Float64Array,
): number {
  let nz = 0;
  let sz = 0;
  let lo = nBins;
  let hi = 0;
  for (let b = 1; b < nBins; b++) {
    const c = hCnt[o + b]!;
    if (!c) continue;
    nz += c;
    sz += hSum[o + b]!;
    if (b < lo) lo = b;
    hi = b;
  }
  let cL = 0;
  let sL = 0;
  if (nz < size) {
    cL = size - nz;
    sL = total - sz;
    lo = 0;
  }
  if (lo >= hi) return -1;
  const base = (total * total) / size;
  let best = -Infinity;
  let bestBin = lo;
  for (let b = lo; b < hi; b++) {
    if (b > 0) {
      const c = hCnt[o + b]!;
      if (!c) continue;
      cL += c;
      sL += hSum[o + b]!;
    }
    const sR = total - sL;
    const g = (sL * sL) / cL + (sR * sR) / (size - cL) - base;
    if (g > best) {
      best = g;
      bestBin = b;
    }
  }
  out[0] = best;
  return bestBin;
}

/**
 * Importances of every feature for target `y` (length nCells) on the binned features `x`.
 *
 * Trees grow level by level. A node's histogram of a feature is built from whichever is smaller:
 * the node's cells (dense bins) or the feature's nonzero cells (sparse); bin 0 (zero expression)
 * is the node's remainder. A sparse pass fills the histograms of every node of the level at once
 * (each cell adds to its node's slot, no branch), kept for the level: a sibling drawing the same
 * feature reads them. Features are drawn per node as sklearn's BestSplitter does: without
 * replacement until `max_features` were visited, constant ones included, and on until a
 * non-constant one is found.
 */
export function boostImportances(
  x: BinnedFeatures,
  y: ArrayLike<number>,
  params: GbmParams,
  seed: number,
  /** A feature never used (the target itself when it is a TF, as arboreto drops it). */
  exclude = -1,
): GbmResult {
  const { nFeatures, bins, colPtr, entries } = x;
  const n = y.length;
  const rng = makeRng(seed);
  const nBins = params.maxBins;
  const mode = params.histogram ?? 'auto';
  const depthMax = params.maxDepth;
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
  // histograms of the current level: one block per feature scanned sparsely (slot 0 = cells in no
  // node of the level, then one slot per node), then a scratch histogram for dense passes
  const maxBlock = (2 ** Math.max(0, depthMax - 1) + 1) * nBins;
  const hCnt = new Float64Array((nPool + 1) * maxBlock);
  const hSum = new Float64Array((nPool + 1) * maxBlock);
  const scratch = nPool * maxBlock;
  const cachedAt = new Int32Array(nFeatures);
  const cacheStamp = new Int32Array(nFeatures).fill(-1);
  const gainOut = new Float64Array(1);
  let stamp = 0;
  // tree (heap numbering, ≤ 2^(depth+1) nodes): split feature (-1 = leaf), bin, leaf value
  const maxNodes = 2 ** (depthMax + 1);
  const nodeFeature = new Int32Array(maxNodes);
  const nodeBin = new Int32Array(maxNodes);
  const nodeValue = new Float64Array(maxNodes);
  const nodeStart = new Int32Array(maxNodes);
  const nodeEnd = new Int32Array(maxNodes);
  /** Node of each in-bag cell (its leaf once the tree is grown), -1 out of bag. */
  const nodeOf = new Int32Array(n);
  /** Offset of each cell's histogram slot in a block of the current level (0: in no node). */
  const slotOf = new Int32Array(n);
  const idx = new Int32Array(nInbag);
  const oobImprovement: number[] = [];
  let stages = 0;
  for (let stage = 0; stage < params.maxStages; stage++) {
    // in-bag sample (sklearn _random_sample_mask: nInbag cells without replacement)
    nodeOf.fill(-1);
    slotOf.fill(0);
    rng.shuffleHead(perm, nInbag);
    for (let i = 0; i < nInbag; i++) {
      nodeOf[perm[i]!] = 0;
      slotOf[perm[i]!] = nBins;
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
    for (let depth = 0; depth <= depthMax; depth++) {
      stamp++;
      const first = 2 ** depth - 1;
      const block = (first + 2) * nBins;
      let blocks = 0;
      for (let nd = first; nd < 2 * first + 1; nd++) {
        if (depth > 0 && nodeFeature[(nd - 1) >> 1]! < 0) continue; // parent is a leaf
        const start = nodeStart[nd]!;
        const end = nodeEnd[nd]!;
        const size = end - start;
        let total = 0;
        for (let k = start; k < end; k++) total += resid[idx[k]!]!;
        nodeValue[nd] = size ? total / size : 0;
        if (depth >= depthMax || size < 2) continue;
        const slot = (nd - first + 1) * nBins;
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
          const k0 = colPtr[f]!;
          const k1 = colPtr[f + 1]!;
          let o = scratch;
          if (cacheStamp[f] === stamp) o = cachedAt[f]! + slot;
          else if (mode === 'sparse' || (mode === 'auto' && k1 - k0 < size)) {
            // one pass over the nonzeros fills the histograms of every node of the level
            const b0 = blocks++ * block;
            sparsePass(entries, k0, k1, slotOf, resid, hCnt, hSum, b0, block);
            cacheStamp[f] = stamp;
            cachedAt[f] = b0;
            o = b0 + slot;
          } else densePass(bins, f * n, idx, start, end, resid, hCnt, hSum, o, nBins);
          const b = bestBinOf(hCnt, hSum, o, nBins, size, total, gainOut);
          if (b < 0)
            constants++; // constant in this node
          else if (gainOut[0]! > best) {
            best = gainOut[0]!;
            bestF = f;
            bestBin = b;
          }
        }
        if (bestF < 0) continue;
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
      }
      // once the level is done, cells take their slot at the next one (0 under a leaf)
      if (depth + 1 >= depthMax) continue;
      for (let nd = first; nd < 2 * first + 1; nd++) {
        if (depth > 0 && nodeFeature[(nd - 1) >> 1]! < 0) continue;
        if (nodeFeature[nd]! < 0) {
          for (let k = nodeStart[nd]!; k < nodeEnd[nd]!; k++) slotOf[idx[k]!] = 0;
          continue;
        }
        for (let c = 2 * nd + 1; c <= 2 * nd + 2; c++) {
          const slot = (c - 2 * first) * nBins;
          for (let k = nodeStart[c]!; k < nodeEnd[c]!; k++) slotOf[idx[k]!] = slot;
        }
      }
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
  features: BinnedFeatures;
  /** Targets' values, target-major (nTargets × nCells). */
  targets: Float32Array;
  exclude: Int32Array;
  params: GbmParams;
  seed: number;
}

/** Importances of targets [from, to) (target-major × nFeatures); seeds seed + target index. */
export function boostSlice(s: GrnSlice, from: number, to: number, onTarget?: () => void): Float64Array {
  const { nFeatures, nCells } = s.features;
  const out = new Float64Array((to - from) * nFeatures);
  for (let k = from; k < to; k++) {
    const y = s.targets.subarray(k * nCells, (k + 1) * nCells);
    const r = boostImportances(s.features, y, s.params, s.seed + k, s.exclude[k]);
    out.set(r.importances, (k - from) * nFeatures);
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
