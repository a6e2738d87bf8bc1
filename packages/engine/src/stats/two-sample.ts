import { twoSidedNormalP } from './normal';

/**
 * Two-sample tests for score comparisons (CNV score violins, ITH box plots), as R's defaults that
 * ggpubr's compare_means / stat_compare_means call:
 *  - wilcoxTest: wilcox.test(x, y) two-sided, normal approximation with tie and continuity
 *    correction (R switches to the exact distribution below 50 values per side without ties; we
 *    always use the approximation — documented difference);
 *  - welchTTest: t.test(x, y) (Welch, unequal variances), two-sided;
 *  - kruskalTest: kruskal.test over several groups (chi-square with tie correction);
 *  - holm: p.adjust(method = "holm"), compare_means' default adjustment;
 *  - signifStars: ggpubr's symnum cut points (**** ≤ 1e-4, *** ≤ 1e-3, ** ≤ 0.01, * ≤ 0.05, ns).
 */

function ranksOf(values: Float64Array): { ranks: Float64Array; tieTerm: number } {
  const n = values.length;
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]] === values[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = r;
    const t = j - i + 1;
    if (t > 1) tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { ranks, tieTerm };
}

export function wilcoxTest(x: ArrayLike<number>, y: ArrayLike<number>): { statistic: number; p: number } {
  const nx = x.length;
  const ny = y.length;
  if (nx === 0 || ny === 0) return { statistic: NaN, p: NaN };
  const all = new Float64Array(nx + ny);
  for (let i = 0; i < nx; i++) all[i] = x[i];
  for (let i = 0; i < ny; i++) all[nx + i] = y[i];
  const { ranks, tieTerm } = ranksOf(all);
  let rx = 0;
  for (let i = 0; i < nx; i++) rx += ranks[i];
  const w = rx - (nx * (nx + 1)) / 2;
  const n = nx + ny;
  const mean = (nx * ny) / 2;
  const variance = ((nx * ny) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { statistic: w, p: 1 };
  const d = w - mean;
  const z = (d - Math.sign(d) * 0.5) / Math.sqrt(variance);
  return { statistic: w, p: twoSidedNormalP(z) };
}

function lnGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9).
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the regularized incomplete beta (modified Lentz). */
function betaCf(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lbt = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lbt) * betaCf(a, b, x)) / a;
  return 1 - (Math.exp(lbt) * betaCf(b, a, 1 - x)) / b;
}

/** Two-sided p of Student's t with df degrees of freedom. */
export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Upper tail of the chi-square distribution, regularized upper incomplete gamma Q(k/2, x/2). */
export function chiSquareUpper(x: number, k: number): number {
  if (x <= 0) return 1;
  const a = k / 2;
  const z = x / 2;
  const lnPre = -z + a * Math.log(z) - lnGamma(a);
  if (z < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= z / (a + n);
      sum += term;
      if (term < sum * 1e-16) break;
    }
    return Math.max(0, 1 - Math.exp(lnPre) * sum);
  }
  const tiny = 1e-300;
  let b = z + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return Math.exp(lnPre) * h;
}

function meanVar(x: ArrayLike<number>): { mean: number; variance: number } {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  const mean = s / x.length;
  let ss = 0;
  for (let i = 0; i < x.length; i++) ss += (x[i] - mean) ** 2;
  return { mean, variance: x.length > 1 ? ss / (x.length - 1) : NaN };
}

export function welchTTest(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): { statistic: number; df: number; p: number } {
  if (x.length < 2 || y.length < 2) return { statistic: NaN, df: NaN, p: NaN };
  const a = meanVar(x);
  const b = meanVar(y);
  const vx = a.variance / x.length;
  const vy = b.variance / y.length;
  const se = Math.sqrt(vx + vy);
  if (se === 0) return { statistic: NaN, df: NaN, p: a.mean === b.mean ? 1 : 0 };
  const t = (a.mean - b.mean) / se;
  const df = (vx + vy) ** 2 / (vx ** 2 / (x.length - 1) + vy ** 2 / (y.length - 1));
  return { statistic: t, df, p: studentTwoSidedP(t, df) };
}

export function kruskalTest(groups: ArrayLike<number>[]): { statistic: number; df: number; p: number } {
  const used = groups.filter((g) => g.length > 0);
  const n = used.reduce((s, g) => s + g.length, 0);
  if (used.length < 2) return { statistic: NaN, df: NaN, p: NaN };
  const all = new Float64Array(n);
  let o = 0;
  for (const g of used) for (let i = 0; i < g.length; i++) all[o++] = g[i];
  const { ranks, tieTerm } = ranksOf(all);
  let h = 0;
  o = 0;
  for (const g of used) {
    let r = 0;
    for (let i = 0; i < g.length; i++) r += ranks[o++];
    h += (r * r) / g.length;
  }
  h = (12 / (n * (n + 1))) * h - 3 * (n + 1);
  const corr = 1 - tieTerm / (n * n * n - n);
  if (corr > 0) h /= corr;
  const df = used.length - 1;
  return { statistic: h, df, p: chiSquareUpper(h, df) };
}

export function holm(p: ArrayLike<number>): Float64Array {
  const n = p.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p[a] - p[b]);
  const out = new Float64Array(n);
  let running = 0;
  order.forEach((i, r) => {
    running = Math.max(running, Math.min(1, (n - r) * p[i]));
    out[i] = running;
  });
  return out;
}

export function signifStars(p: number): string {
  if (!Number.isFinite(p)) return 'ns';
  if (p <= 1e-4) return '****';
  if (p <= 1e-3) return '***';
  if (p <= 0.01) return '**';
  if (p <= 0.05) return '*';
  return 'ns';
}

/** Five-number box summary (R quantile type 7) plus mean and a Gaussian KDE outline (bw.nrd0). */
export function boxAndViolin(
  values: ArrayLike<number>,
  points = 64,
): {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  grid: number[];
  density: number[];
} {
  const v = Float64Array.from(values)
    .filter((x) => Number.isFinite(x))
    .sort();
  const n = v.length;
  const q = (p: number) => {
    if (n === 0) return NaN;
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    return v[lo] + (h - lo) * ((v[Math.min(lo + 1, n - 1)] ?? v[lo]) - v[lo]);
  };
  let sum = 0;
  for (const x of v) sum += x;
  const out = {
    n,
    min: v[0] ?? NaN,
    q1: q(0.25),
    median: q(0.5),
    q3: q(0.75),
    max: v[n - 1] ?? NaN,
    mean: n ? sum / n : NaN,
  };
  if (n < 2) return { ...out, grid: [], density: [] };
  const sd = Math.sqrt(v.reduce((s, x) => s + (x - out.mean) ** 2, 0) / (n - 1));
  const iqr = out.q3 - out.q1;
  let lo = Math.min(sd, iqr / 1.34);
  if (!(lo > 0)) lo = sd || Math.abs(v[0]) || 1;
  const bw = 0.9 * lo * n ** -0.2;
  const from = out.min;
  const to = out.max;
  const grid: number[] = [];
  const density: number[] = [];
  // Binned KDE: values sorted, so a sliding window of ±4 bw bounds the work.
  let start = 0;
  for (let i = 0; i < points; i++) {
    const x = points === 1 ? from : from + ((to - from) * i) / (points - 1);
    while (start < n && v[start] < x - 4 * bw) start++;
    let s = 0;
    for (let j = start; j < n && v[j] <= x + 4 * bw; j++) {
      const z = (x - v[j]) / bw;
      s += Math.exp(-0.5 * z * z);
    }
    grid.push(x);
    density.push(s / (n * bw * Math.sqrt(2 * Math.PI)));
  }
  return { ...out, grid, density };
}
