import type { CountMatrix } from '@cellcloud/formats/matrix';

/**
 * inferCNV's `run()` with the defaults docs/methods/cnv.md lists (R infercnv, commit 65e6bf5 read for the
 * semantics; analysis_mode "samples", HMM off), in its step order:
 *   2. drop genes whose mean over the analysed cells is below `cutoff` (0.1) or that are > 0 in
 *      fewer than `minCellsPerGene` (3) cells;
 *   3. normalise each cell to the median library size (sum over the kept genes), 4. log2(x + 1);
 *   8. subtract the reference: per gene, the mean of every reference group; a value above the
 *      largest group mean loses it, below the smallest gains it, in between becomes 0
 *      (ref_subtract_use_mean_bounds = TRUE);
 *   9. bound at ±max_centered_threshold (3);
 *  10. smooth each cell along each chromosome with the pyramidal (triangular) window of
 *      `windowLength` (101) genes; near the chromosome ends the window is truncated and the
 *      weights renormalised (inferCNV's .smooth_helper);
 *  11. centre each cell by its median; 12. subtract the reference again (same rule);
 *  14. 2^x (values around 1);
 *  22. denoise: values inside mean(reference) ± sd_amplifier · mean(per-reference-cell sd) are set
 *      to mean(reference) (clear_noise_via_ref_mean_sd, sd_amplifier 1.5).
 * Cells are processed one at a time (memory O(genes) besides the input): reference cells are
 * passed three times (means before smoothing, means after smoothing, denoise statistics), then
 * every cell once more and its final values are handed to `emit`.
 */
export interface InferCnvOptions {
  cutoff: number;
  minCellsPerGene: number;
  windowLength: number;
  maxCenteredThreshold: number;
  denoise: boolean;
  sdAmplifier: number;
}

export interface InferCnvInput {
  /** genes × cells, CSC by cell: the expression fed to inferCNV (log-normalized or counts). */
  matrix: CountMatrix;
  /** Analysed cells (column indices of `matrix`). */
  cells: Uint32Array;
  /** Reference groups as positions in `cells`. */
  refGroups: Uint32Array[];
  /** Dataset gene indices in genome order, and their chromosome. */
  genes: Int32Array;
  chrom: Int32Array;
  opts: InferCnvOptions;
  onProgress?: (fraction: number, step: string) => void;
  signal?: AbortSignal;
  /** Final values of cell `cells[pos]` over the kept genes (buffer reused: copy what you keep). */
  emit: (pos: number, values: Float64Array) => void;
  /** Called once the gene filter is known (may throw to refuse the run). */
  onKept?: (kept: Int32Array, segments: InferCnvOutput['segments']) => void;
  /** Order in which the final pass visits the analysed cells (default: 0..n−1). */
  emitOrder?: Uint32Array;
}

export interface InferCnvOutput {
  /** Indices into `genes` (the layout) of the kept genes, in genome order. */
  kept: Int32Array;
  /** Per kept gene, its chromosome segment start/end (kept-gene indices). */
  segments: { chrom: number; start: number; end: number }[];
  normalizeFactor: number;
  denoise: { applied: boolean; lower: number; upper: number; fill: number };
}

/** R's median (mean of the two middle values for an even count), by selection on a scratch copy. */
export function medianInPlace(a: Float64Array, n: number): number {
  if (n === 0) return NaN;
  const select = (k: number): number => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const pivot = a[(lo + hi) >> 1];
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
          const t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) hi = j;
      else if (k >= i) lo = i;
      else return a[k];
    }
    return a[k];
  };
  const h = n >> 1;
  if (n % 2 === 1) return select(h);
  const upper = select(h);
  // after selecting h, every value left of h is ≤ a[h]: the lower middle is their maximum
  let lower = -Infinity;
  for (let i = 0; i < h; i++) if (a[i] > lower) lower = a[i];
  return (lower + upper) / 2;
}

/**
 * Pyramidal smoothing of x[from, to) in place: out[i] = Σ w_j x_j / Σ w_j over j within the
 * window, w_j = t + 1 − |i − j|, t = (window − 1) / 2 (prefix sums of x and j·x, O(n)).
 */
export function smoothPyramid(
  x: Float64Array,
  from: number,
  to: number,
  window: number,
  p0: Float64Array,
  p1: Float64Array,
): void {
  const n = to - from;
  if (n < 2 || window < 2) return;
  const t = (window - 1) / 2;
  p0[0] = 0;
  p1[0] = 0;
  for (let k = 0; k < n; k++) {
    const v = x[from + k];
    p0[k + 1] = p0[k] + v;
    p1[k + 1] = p1[k] + k * v;
  }
  const w0 = (a: number, b: number) => b - a; // count of j in [a, b)
  const w1 = (a: number, b: number) => ((b - 1) * b) / 2 - ((a - 1) * a) / 2; // Σ j over [a, b)
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - t);
    const b = Math.min(n - 1, i + t);
    // left j in [a, i]: weight t+1-i+j; right j in [i+1, b]: weight t+1+i-j
    const left = (t + 1 - i) * (p0[i + 1] - p0[a]) + (p1[i + 1] - p1[a]);
    const right = (t + 1 + i) * (p0[b + 1] - p0[i + 1]) - (p1[b + 1] - p1[i + 1]);
    const den = (t + 1 - i) * w0(a, i + 1) + w1(a, i + 1) + (t + 1 + i) * w0(i + 1, b + 1) - w1(i + 1, b + 1);
    x[from + i] = (left + right) / den;
  }
}

function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

export function runInferCnv(input: InferCnvInput): InferCnvOutput {
  const { matrix, cells, refGroups, genes, chrom, opts } = input;
  const nCells = cells.length;
  const progress = input.onProgress ?? (() => {});
  // layout position of each dataset gene
  const layoutPos = new Int32Array(matrix.nGenes).fill(-1);
  genes.forEach((g, i) => (layoutPos[g] = i));

  // step 2: gene filter over the analysed cells
  const sum = new Float64Array(genes.length);
  const nz = new Uint32Array(genes.length);
  for (let p = 0; p < nCells; p++) {
    const c = cells[p];
    for (let k = matrix.indptr[c], e = matrix.indptr[c + 1]; k < e; k++) {
      const i = layoutPos[matrix.indices[k]];
      if (i < 0) continue;
      const v = matrix.data[k];
      sum[i] += v;
      if (v > 0) nz[i]++;
    }
  }
  const keptList: number[] = [];
  for (let i = 0; i < genes.length; i++) {
    if (sum[i] / nCells >= opts.cutoff && nz[i] >= opts.minCellsPerGene) keptList.push(i);
  }
  const kept = Int32Array.from(keptList);
  const G = kept.length;
  const keptOf = new Int32Array(matrix.nGenes).fill(-1);
  kept.forEach((i, k) => (keptOf[genes[i]] = k));
  const segments: InferCnvOutput['segments'] = [];
  for (let k = 0; k < G; k++) {
    const ch = chrom[kept[k]];
    const last = segments[segments.length - 1];
    if (last && last.chrom === ch) last.end = k + 1;
    else segments.push({ chrom: ch, start: k, end: k + 1 });
  }
  input.onKept?.(kept, segments);
  if (G === 0)
    return { kept, segments, normalizeFactor: NaN, denoise: { applied: false, lower: 1, upper: 1, fill: 1 } };

  // step 3: library sizes over the kept genes, median as the factor
  const cs = new Float64Array(nCells);
  for (let p = 0; p < nCells; p++) {
    const c = cells[p];
    let s = 0;
    for (let k = matrix.indptr[c], e = matrix.indptr[c + 1]; k < e; k++)
      if (keptOf[matrix.indices[k]] >= 0) s += matrix.data[k];
    cs[p] = s;
  }
  const nf = medianInPlace(Float64Array.from(cs), nCells);

  const buf = new Float64Array(G);
  const scratch = new Float64Array(G);
  const p0 = new Float64Array(G + 1);
  const p1 = new Float64Array(G + 1);
  const dense = (p: number, out: Float64Array) => {
    out.fill(0);
    const c = cells[p];
    const scale = cs[p] > 0 ? nf / cs[p] : 0;
    for (let k = matrix.indptr[c], e = matrix.indptr[c + 1]; k < e; k++) {
      const j = keptOf[matrix.indices[k]];
      if (j >= 0) out[j] = Math.log2(matrix.data[k] * scale + 1);
    }
  };
  const subtractBounds = (out: Float64Array, lo: Float64Array, hi: Float64Array) => {
    for (let j = 0; j < G; j++) {
      const v = out[j];
      out[j] = v > hi[j] ? v - hi[j] : v < lo[j] ? v - lo[j] : 0;
    }
  };
  const groupBounds = (means: Float64Array[]): { lo: Float64Array; hi: Float64Array } => {
    const lo = new Float64Array(G).fill(Infinity);
    const hi = new Float64Array(G).fill(-Infinity);
    for (const m of means) {
      for (let j = 0; j < G; j++) {
        if (m[j] < lo[j]) lo[j] = m[j];
        if (m[j] > hi[j]) hi[j] = m[j];
      }
    }
    return { lo, hi };
  };
  const refMeans = (
    fill: (p: number, out: Float64Array) => void,
    label: string,
    base: number,
  ): Float64Array[] => {
    let done = 0;
    const total = refGroups.reduce((s, g) => s + g.length, 0);
    return refGroups.map((grp) => {
      const m = new Float64Array(G);
      for (const p of grp) {
        fill(p, buf);
        for (let j = 0; j < G; j++) m[j] += buf[j];
        if (++done % 256 === 0) {
          checkAbort(input.signal);
          progress(base + (0.1 * done) / total, label);
        }
      }
      for (let j = 0; j < G; j++) m[j] /= grp.length;
      return m;
    });
  };

  // step 8 bounds: reference group means of the log values
  progress(0.05, 'reference');
  const b1 = groupBounds(refMeans(dense, 'reference', 0.05));
  const T = opts.maxCenteredThreshold;
  const centered = (p: number, out: Float64Array) => {
    dense(p, out);
    subtractBounds(out, b1.lo, b1.hi); // step 8
    for (let j = 0; j < G; j++) out[j] = out[j] > T ? T : out[j] < -T ? -T : out[j]; // step 9
    for (const s of segments) smoothPyramid(out, s.start, s.end, opts.windowLength, p0, p1); // step 10
    scratch.set(out);
    const med = medianInPlace(scratch, G); // step 11
    for (let j = 0; j < G; j++) out[j] -= med;
  };
  // step 12 bounds: reference group means after smoothing and centring
  const b2 = groupBounds(refMeans(centered, 'smoothing', 0.15));
  const final = (p: number, out: Float64Array) => {
    centered(p, out);
    subtractBounds(out, b2.lo, b2.hi);
    for (let j = 0; j < G; j++) out[j] = 2 ** out[j]; // step 14
  };

  // step 22 statistics over the reference cells' final values
  let denoise: InferCnvOutput['denoise'] = { applied: false, lower: 1, upper: 1, fill: 1 };
  if (opts.denoise) {
    let total = 0;
    let count = 0;
    let sdSum = 0;
    let nRef = 0;
    for (const grp of refGroups) {
      for (const p of grp) {
        final(p, buf);
        let s = 0;
        for (let j = 0; j < G; j++) s += buf[j];
        const mean = s / G;
        let ss = 0;
        for (let j = 0; j < G; j++) ss += (buf[j] - mean) ** 2;
        total += s;
        count += G;
        sdSum += G > 1 ? Math.sqrt(ss / (G - 1)) : 0;
        nRef++;
      }
      checkAbort(input.signal);
    }
    const fill = total / count;
    const band = (sdSum / nRef) * opts.sdAmplifier;
    denoise = { applied: true, lower: fill - band, upper: fill + band, fill };
  }

  // final pass over every analysed cell
  progress(0.3, 'cells');
  const order = input.emitOrder ?? Uint32Array.from({ length: nCells }, (_, i) => i);
  for (let q = 0; q < order.length; q++) {
    const p = order[q];
    final(p, buf);
    if (denoise.applied) {
      const { lower, upper, fill } = denoise;
      for (let j = 0; j < G; j++) if (buf[j] > lower && buf[j] < upper) buf[j] = fill;
    }
    input.emit(p, buf);
    if (q % 512 === 511) {
      checkAbort(input.signal);
      progress(0.3 + (0.5 * (q + 1)) / order.length, 'cells');
    }
  }
  return { kept, segments, normalizeFactor: nf, denoise };
}
