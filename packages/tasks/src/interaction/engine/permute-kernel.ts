import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * The CellPhoneDB mean computation and its label-permutation loop, on its own so that worker
 * threads can run slices of the permutations. This file imports nothing of ours (Node loads it
 * directly as a worker, type annotations stripped) and uses erasable TypeScript only.
 *
 * Rows 0..nRows-1 are the expressed proteins (cells stored by cell, CSR), rows nRows.. the
 * complexes (minimum over their subunit rows). Permutation p shuffles the cell-type labels with
 * its own generator seeded from (seed, p), so the shuffles — and therefore the counts — are the
 * same whatever the number of threads and whichever thread runs p.
 */
export interface KernelInput {
  nCells: number;
  nRows: number;
  nTypes: number;
  cellPtr: Int32Array;
  cellRow: Int32Array;
  cellVal: Float32Array;
  labels: Int32Array;
  typeSize: Int32Array;
  complexPtr: Int32Array;
  complexRows: Int32Array;
  /** Interaction partners as row indices (proteins < nRows ≤ complexes). */
  ia: Int32Array;
  ib: Int32Array;
  /** Cell-type pairs (type indices). */
  pa: Int32Array;
  pb: Int32Array;
  /** Real interaction means, interaction-major (nInteractions × nPairs). */
  real: Float64Array;
  /**
   * Pairs whose p-value the shuffles decide, per interaction (CSR: activePtr[i]..activePtr[i+1]
   * index activePairs). The others get p = 1 anyway (real mean 0 or a partner not expressed in
   * more than `threshold` of its type), so the loop skips them.
   */
  activePtr: Int32Array;
  activePairs: Int32Array;
  seed: number;
}

/** Row means per cell type for the given labels: out[row * nTypes + t] (proteins then complexes). */
export function typeMeans(s: KernelInput, labels: Int32Array, sums: Float64Array, out: Float64Array): void {
  const { nCells, nRows, nTypes, cellPtr, cellRow, cellVal, typeSize, complexPtr, complexRows } = s;
  sums.fill(0, 0, nRows * nTypes);
  for (let c = 0; c < nCells; c++) {
    const t = labels[c];
    for (let k = cellPtr[c]; k < cellPtr[c + 1]; k++) sums[cellRow[k] * nTypes + t] += cellVal[k];
  }
  for (let r = 0; r < nRows; r++) {
    for (let t = 0; t < nTypes; t++) out[r * nTypes + t] = sums[r * nTypes + t] / typeSize[t];
  }
  const nComplex = complexPtr.length - 1;
  for (let x = 0; x < nComplex; x++) {
    const o = (nRows + x) * nTypes;
    for (let t = 0; t < nTypes; t++) {
      let m = Infinity;
      for (let k = complexPtr[x]; k < complexPtr[x + 1]; k++) {
        const v = out[complexRows[k] * nTypes + t];
        if (v < m) m = v;
      }
      out[o + t] = m;
    }
  }
}

/** CellPhoneDB `mean_analysis`: (x > 0) · (y > 0) · (x + y) / 2 for every interaction × pair. */
export function interactionMeans(s: KernelInput, means: Float64Array, out: Float64Array): void {
  const { nTypes, ia, ib, pa, pb } = s;
  const nP = pa.length;
  for (let i = 0; i < ia.length; i++) {
    const ra = ia[i] * nTypes;
    const rb = ib[i] * nTypes;
    const o = i * nP;
    for (let q = 0; q < nP; q++) {
      const x = means[ra + pa[q]];
      const y = means[rb + pb[q]];
      out[o + q] = x > 0 && y > 0 ? (x + y) / 2 : 0;
    }
  }
}

/** splitmix32 step, used to seed the per-permutation generator. */
function mix(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * Fisher–Yates shuffle of `labels` into `out` with permutation p's own xoshiro128** stream
 * (state from splitmix32 of seed and p). Exported so tests can reproduce the exact shuffles.
 */
export function shuffleLabels(labels: Int32Array, seed: number, p: number, out: Int32Array): void {
  let s0 = mix(seed >>> 0);
  let s1 = mix(s0 ^ Math.imul(p + 1, 0x27d4eb2d));
  let s2 = mix(s1 ^ (p >>> 0));
  let s3 = mix(s2 ^ 0x165667b1);
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  out.set(labels);
  for (let i = labels.length - 1; i > 0; i--) {
    // xoshiro128**
    const r = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3 >>> 0, 11);
    s0 >>>= 0;
    s1 >>>= 0;
    s2 >>>= 0;
    s3 >>>= 0;
    const j = Math.floor((r / 4294967296) * (i + 1));
    const tmp = out[i];
    out[i] = out[j];
    out[j] = tmp;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/**
 * Runs permutations [from, to): for each, shuffles the labels, recomputes the means and adds 1 to
 * `greater[i · nPairs + q]` where the shuffled mean is strictly greater than the real one
 * (CellPhoneDB `shuffled_greater_than_real`). `onPermutation` is called after each one.
 */
export function runPermutations(
  s: KernelInput,
  from: number,
  to: number,
  greater: Uint32Array,
  onPermutation?: () => void,
): void {
  const nMulti = s.nRows + s.complexPtr.length - 1;
  const sums = new Float64Array(s.nRows * s.nTypes);
  const means = new Float64Array(nMulti * s.nTypes);
  const shuffled = new Int32Array(s.nCells);
  const nP = s.pa.length;
  const { nTypes, ia, ib, pa, pb, real, activePtr, activePairs } = s;
  for (let p = from; p < to; p++) {
    shuffleLabels(s.labels, s.seed, p, shuffled);
    typeMeans(s, shuffled, sums, means);
    for (let i = 0; i < ia.length; i++) {
      const ra = ia[i] * nTypes;
      const rb = ib[i] * nTypes;
      const o = i * nP;
      for (let k = activePtr[i]; k < activePtr[i + 1]; k++) {
        const q = activePairs[k];
        const x = means[ra + pa[q]];
        const y = means[rb + pb[q]];
        const m = x > 0 && y > 0 ? (x + y) / 2 : 0;
        if (m > real[o + q]) greater[o + q]++;
      }
    }
    onPermutation?.();
  }
}

// Worker entry: permutations.ts starts this file with { task: 'cpdb-permute', input } and then
// posts { from, to } slices; each answer is { done: true, greater } (transferred) or a progress tick.
if (!isMainThread && workerData?.task === 'cpdb-permute' && parentPort) {
  const input = workerData.input as KernelInput;
  const port = parentPort;
  const nOut = input.ia.length * input.pa.length;
  port.on('message', (msg: { from: number; to: number }) => {
    const greater = new Uint32Array(nOut);
    runPermutations(input, msg.from, msg.to, greater, () => port.postMessage({ tick: 1 }));
    port.postMessage({ done: true, greater }, [greater.buffer]);
  });
}
