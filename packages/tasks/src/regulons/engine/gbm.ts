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
 * Erasable TypeScript only (with histograms.ts and rng.ts): the worker threads of grn.ts load these
 * files with Node's own type stripping (grn-worker.ts resolves their extensionless imports).
 */

import type { BinnedFeatures, GbmParams, GrnSlice } from './binning';
import { bestBinOf, densePass, sparsePass } from './histograms';
import { makeRng } from './rng';

export interface GbmResult {
  importances: Float64Array;
  stages: number;
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
