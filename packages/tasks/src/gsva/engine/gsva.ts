import { erfc } from '@cellcloud/engine/tasks/kit';

/**
 * GSVA as Bioconductor GSVA 1.46 computes it with its defaults (method "gsva", kcdf "Gaussian",
 * tau 1, mx.diff TRUE, abs.ranking FALSE, min.sz 1):
 * 1. genes with constant values (sd < 1e-10) are dropped;
 * 2. per gene, a Gaussian-kernel CDF at each column from all columns, bandwidth sd/4 (sample sd),
 *    with GSVA's precomputed normal CDF table (10,000 steps over [0, 10] sd, index truncated), and
 *    r = −log((1 − F)/F);
 * 3. per column, genes ordered by r (decreasing, ties by gene order as R's order()), rank score of
 *    the gene at position m (1-based) = |p − m + 1 − p/2|;
 * 4. per set and column, the running sum over that order (+score/Σscores of the set for a member,
 *    −1/(p − k) otherwise); ES = max positive + max negative deviation.
 * `x` is genes × columns, row-major. Returns sets × columns scores (row-major) for the sets that
 * keep at least `minSize` genes after mapping, with their gene indices (into the kept genes).
 */
const RES = 10_000;
const MAXP = 10;
let CDF: Float64Array | undefined;
function cdfTable(): Float64Array {
  if (!CDF) {
    CDF = new Float64Array(RES + 1);
    for (let i = 0; i <= RES; i++) CDF[i] = 0.5 * erfc(-(MAXP * i) / RES / Math.SQRT2);
  }
  return CDF;
}

function precomputedCdf(x: number, sigma: number, t: Float64Array): number {
  const v = x / sigma;
  if (v < -MAXP) return 0;
  if (v > MAXP) return 1;
  const c = t[Math.trunc((Math.abs(v) / MAXP) * RES)]!;
  return v < 0 ? 1 - c : c;
}

export interface GsvaInput {
  x: Float64Array;
  nGenes: number;
  nCols: number;
  /** Per set: gene indices (rows of x); duplicates ignored. */
  sets: Int32Array[];
  minSize?: number;
  maxSize?: number;
}

export interface GsvaOutput {
  /** Indices (into input.sets) of the scored sets. */
  kept: number[];
  /** Set size after dropping constant genes, per kept set. */
  sizes: number[];
  /** kept.length × nCols, row-major. */
  scores: Float64Array;
}

export function gsva(input: GsvaInput, onProgress?: (f: number) => void): GsvaOutput {
  const { x, nGenes, nCols } = input;
  const t = cdfTable();
  // 1. non-constant genes
  const keep: number[] = [];
  const sds: number[] = [];
  for (let g = 0; g < nGenes; g++) {
    let m = 0;
    for (let j = 0; j < nCols; j++) m += x[g * nCols + j]!;
    m /= nCols;
    let ss = 0;
    for (let j = 0; j < nCols; j++) ss += (x[g * nCols + j]! - m) ** 2;
    const sd = nCols > 1 ? Math.sqrt(ss / (nCols - 1)) : 0;
    if (sd >= 1e-10) {
      keep.push(g);
      sds.push(sd);
    }
  }
  const p = keep.length;
  const newIdx = new Int32Array(nGenes).fill(-1);
  keep.forEach((g, i) => (newIdx[g] = i));
  // 2. kernel CDF, grouped by distinct values of the gene (identical values give identical F)
  const density = new Float64Array(p * nCols); // gene-major
  const vals = new Float64Array(nCols);
  keep.forEach((g, i) => {
    for (let j = 0; j < nCols; j++) vals[j] = x[g * nCols + j]!;
    const sorted = Float64Array.from(vals).sort();
    const uniq: number[] = [];
    const count: number[] = [];
    for (const v of sorted) {
      if (uniq.length && uniq[uniq.length - 1] === v) count[count.length - 1]!++;
      else {
        uniq.push(v);
        count.push(1);
      }
    }
    const bw = sds[i]! / 4;
    const fOf = new Map<number, number>();
    for (const y of uniq) {
      let left = 0;
      for (let u = 0; u < uniq.length; u++) left += count[u]! * precomputedCdf(y - uniq[u]!, bw, t);
      left /= nCols;
      fOf.set(y, -Math.log((1 - left) / left));
    }
    for (let j = 0; j < nCols; j++) density[i * nCols + j] = fOf.get(vals[j]!)!;
    if (onProgress && (i & 1023) === 0) onProgress((0.7 * i) / p);
  });
  // gene sets over kept genes
  const minSize = input.minSize ?? 1;
  const maxSize = input.maxSize ?? Infinity;
  const kept: number[] = [];
  const members: Int32Array[] = [];
  input.sets.forEach((s, si) => {
    const m = [...new Set(Array.from(s, (g) => newIdx[g]!).filter((g) => g >= 0))];
    if (m.length >= minSize && m.length <= maxSize) {
      kept.push(si);
      members.push(Int32Array.from(m));
    }
  });
  const scores = new Float64Array(kept.length * nCols);
  // 3–4. per column
  const order = new Int32Array(p);
  const rankScore = new Float64Array(p);
  const mask = new Int32Array(p).fill(-1);
  const col = new Float64Array(p);
  for (let j = 0; j < nCols; j++) {
    for (let i = 0; i < p; i++) {
      order[i] = i;
      col[i] = density[i * nCols + j]!;
    }
    order.sort((a, b) => col[b]! - col[a]! || a - b);
    for (let m = 0; m < p; m++) rankScore[order[m]!] = Math.abs(p - m - p / 2);
    members.forEach((set, si) => {
      let sum = 0;
      for (const g of set) {
        mask[g] = si;
        sum += rankScore[g]!;
      }
      const dec = 1 / (p - set.length);
      let cum = 0;
      let mxPos = 0;
      let mxNeg = 0;
      for (let m = 0; m < p; m++) {
        const g = order[m]!;
        if (mask[g] === si) cum += rankScore[g]! / sum;
        else cum -= dec;
        if (cum > mxPos) mxPos = cum;
        if (cum < mxNeg) mxNeg = cum;
      }
      scores[si * nCols + j] = mxPos + mxNeg;
    });
    if (onProgress && (j & 15) === 0) onProgress(0.7 + (0.3 * j) / nCols);
  }
  return { kept, sizes: members.map((m) => m.length), scores };
}
