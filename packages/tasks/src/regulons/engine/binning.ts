/** Boosting settings of gbm.ts (GRNBOOST2 below = arboreto's SGBM_KWARGS, sklearn defaults otherwise). */
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

/**
 * TF expressions binned once for every target (binFeatures below): feature-major bins (nFeatures × nCells,
 * 0 = zero expression) and the nonzero ones per feature (CSC): entry k = cell << 8 | bin, the
 * cells of feature f in [colPtr[f], colPtr[f + 1]).
 */
export interface BinnedFeatures {
  nFeatures: number;
  nCells: number;
  bins: Uint8Array;
  colPtr: Int32Array;
  entries: Int32Array;
}

/**
 * TF expressions binned once for GRNBoost2-style boosting (gbm.ts), on the main thread: bin 0 for
 * values ≤ 0, else 1.. by ≤ maxBins − 1 quantiles of the feature's positive values; the nonzero
 * bins also per feature (CSC entries cell << 8 | bin) for the sparse histogram passes.
 */
export function binFeatures(features: readonly Float32Array[], maxBins: number): BinnedFeatures {
  if (maxBins > 256) throw new Error(`binFeatures: at most 256 bins (${maxBins})`);
  const n = features[0]?.length ?? 0;
  const nFeatures = features.length;
  const bins = new Uint8Array(nFeatures * n);
  const colPtr = new Int32Array(nFeatures + 1);
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
      bins[f * n + i] = 1 + lo;
    }
    colPtr[f + 1] = colPtr[f]! + pos.length;
  });
  const entries = new Int32Array(colPtr[nFeatures]!);
  for (let f = 0, k = 0; f < nFeatures; f++) {
    for (let i = 0; i < n; i++) {
      const b = bins[f * n + i]!;
      if (b) entries[k++] = (i << 8) | b;
    }
  }
  return { nFeatures, nCells: n, bins, colPtr, entries };
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
