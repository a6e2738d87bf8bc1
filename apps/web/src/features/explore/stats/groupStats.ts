/** Per-group aggregates over per-cell arrays (violin/box summaries, dot plot, composition counts). */

export interface BoxStats {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  n: number;
}

function quantileSorted(s: Float64Array, q: number): number {
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/** Splits `values` by category code; `mask` (optional) keeps only cells with mask[i] = 1. */
export function splitByGroup(
  values: ArrayLike<number>,
  codes: ArrayLike<number>,
  nGroups: number,
  mask?: ArrayLike<number>,
): Float64Array[] {
  const counts = new Uint32Array(nGroups);
  for (let i = 0; i < codes.length; i += 1) if (!mask || mask[i]) counts[codes[i]!]! += 1;
  const out = Array.from({ length: nGroups }, (_, g) => new Float64Array(counts[g]!));
  const fill = new Uint32Array(nGroups);
  for (let i = 0; i < codes.length; i += 1) {
    if (mask && !mask[i]) continue;
    const g = codes[i]!;
    out[g]![fill[g]!] = values[i]!;
    fill[g]! += 1;
  }
  return out;
}

export function boxStats(values: Float64Array): BoxStats {
  const s = Float64Array.from(values).sort();
  return {
    min: s[0] ?? Number.NaN,
    q1: quantileSorted(s, 0.25),
    median: quantileSorted(s, 0.5),
    q3: quantileSorted(s, 0.75),
    max: s[s.length - 1] ?? Number.NaN,
    n: s.length,
  };
}

/** Gaussian KDE on `points` grid positions (Silverman bandwidth), scaled so the peak is 1. */
export function violinDensity(values: Float64Array, points: number[]): number[] {
  const n = values.length;
  if (n === 0) return points.map(() => 0);
  // subsample for speed: density shape is stable with 4,000 draws
  const step = Math.max(1, Math.floor(n / 4000));
  let mean = 0;
  let m = 0;
  for (let i = 0; i < n; i += step) {
    mean += values[i]!;
    m += 1;
  }
  mean /= m;
  let v = 0;
  for (let i = 0; i < n; i += step) v += (values[i]! - mean) ** 2;
  const sd = Math.sqrt(v / Math.max(1, m - 1));
  const bw = Math.max(1e-6, 1.06 * (sd || 1) * m ** -0.2);
  const dens = points.map((p) => {
    let s = 0;
    for (let i = 0; i < n; i += step) s += Math.exp(-0.5 * ((p - values[i]!) / bw) ** 2);
    return s;
  });
  const peak = Math.max(...dens);
  return dens.map((d) => (peak > 0 ? d / peak : 0));
}

/** Dot plot cell: mean expression and fraction of cells with value > 0 per group. */
export function meanAndPct(
  values: ArrayLike<number>,
  codes: ArrayLike<number>,
  nGroups: number,
): { mean: number[]; pct: number[] } {
  const sum = new Float64Array(nGroups);
  const nz = new Float64Array(nGroups);
  const n = new Float64Array(nGroups);
  for (let i = 0; i < codes.length; i += 1) {
    const g = codes[i]!;
    const v = values[i]!;
    n[g]! += 1;
    sum[g]! += v;
    if (v > 0) nz[g]! += 1;
  }
  return {
    mean: Array.from(sum, (s, g) => (n[g]! > 0 ? s / n[g]! : 0)),
    pct: Array.from(nz, (z, g) => (n[g]! > 0 ? z / n[g]! : 0)),
  };
}

/** Contingency table counts[row = label of `a`][col = label of `b`]. */
export function crossTab(a: ArrayLike<number>, nA: number, b: ArrayLike<number>, nB: number): number[][] {
  const t = Array.from({ length: nA }, () => new Array<number>(nB).fill(0));
  for (let i = 0; i < a.length; i += 1) t[a[i]!]![b[i]!]! += 1;
  return t;
}
