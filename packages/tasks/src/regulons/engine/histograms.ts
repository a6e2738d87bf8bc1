/**
 * Histogram passes and split search of the boosting trees (gbm.ts): 32-bin histograms of one
 * feature's (count, residual sum) per node, built densely from a node's cells or sparsely from the
 * feature's nonzero cells for every node of a tree level at once; bin 0 (zero expression) is the
 * node's remainder.
 */

/** Zeroes the histogram block [b0, b0 + len) and adds the entries [k0, k1) at each cell's slot. */
export function sparsePass(
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
export function densePass(
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
export function bestBinOf(
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
