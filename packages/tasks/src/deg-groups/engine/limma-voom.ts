import {
  averageRanks,
  benjaminiHochberg,
  digamma,
  studentTwoSidedP,
  trigamma,
  twoSidedNormalP,
} from '@cellcloud/engine/tasks/kit';
import { approxFun, lowess } from './lowess';

/**
 * limma-voom for two groups of pseudobulk columns, as the standard edgeR/limma pipeline:
 * filterByExpr (min.count 10, min.total.count 15) → calcNormFactors (TMM, logratioTrim 0.3,
 * sumTrim 0.05, precision weights) → voom (log-CPM with 0.5/1 offsets, lowess f = 0.5 of √σ vs
 * mean log-count, observation weights 1/f(fitted log-count)^4) → lmFit (weighted least squares,
 * design ~ group) → eBayes (squeezeVar: fitFDist on the residual variances) → moderated t,
 * two-sided p, BH. `counts` is genes × columns row-major; `group[j]` = 1 for group 1, 0 for group 2.
 * logFC = group 1 − group 2 (log2 CPM).
 */
export interface VoomResult {
  /** Row (gene) indices kept by the expression filter. */
  genes: number[];
  logFC: Float64Array;
  aveExpr: Float64Array;
  t: Float64Array;
  pval: Float64Array;
  padj: Float64Array;
  normFactors: Float64Array;
  priorDf: number;
}

function quantile7(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? 0) - sorted[lo]!);
}

export function tmmFactors(
  counts: Float64Array,
  nGenes: number,
  nCols: number,
  lib: Float64Array,
): Float64Array {
  const rows: number[] = [];
  for (let g = 0; g < nGenes; g++) {
    let s = 0;
    for (let j = 0; j < nCols; j++) s += counts[g * nCols + j]!;
    if (s > 0) rows.push(g);
  }
  const colOf = (j: number) => Float64Array.from(rows, (g) => counts[g * nCols + j]!);
  const f75 = Float64Array.from({ length: nCols }, (_, j) =>
    quantile7(
      colOf(j)
        .map((x) => x / lib[j]!)
        .sort(),
      0.75,
    ),
  );
  const mean75 = f75.reduce((a, b) => a + b, 0) / nCols;
  let ref = 0;
  const med75 = Float64Array.from(f75).sort()[Math.floor((nCols - 1) / 2)]!;
  if (med75 < 1e-20) {
    let best = -1;
    for (let j = 0; j < nCols; j++) {
      const s = colOf(j).reduce((a, x) => a + Math.sqrt(x), 0);
      if (s > best) [best, ref] = [s, j];
    }
  } else
    for (let j = 1; j < nCols; j++) if (Math.abs(f75[j]! - mean75) < Math.abs(f75[ref]! - mean75)) ref = j;
  const r = colOf(ref);
  const nR = lib[ref]!;
  const f = Float64Array.from({ length: nCols }, (_, j) => {
    const o = colOf(j);
    const nO = lib[j]!;
    const logR: number[] = [];
    const absE: number[] = [];
    const v: number[] = [];
    for (let i = 0; i < o.length; i++) {
      const lr = Math.log2(o[i]! / nO / (r[i]! / nR));
      const ae = (Math.log2(o[i]! / nO) + Math.log2(r[i]! / nR)) / 2;
      if (!Number.isFinite(lr) || !Number.isFinite(ae) || ae <= -1e10) continue;
      logR.push(lr);
      absE.push(ae);
      v.push((nO - o[i]!) / nO / o[i]! + (nR - r[i]!) / nR / r[i]!);
    }
    if (!logR.length || Math.max(...logR.map(Math.abs)) < 1e-6) return 1;
    const n = logR.length;
    const loL = Math.floor(n * 0.3) + 1;
    const hiL = n + 1 - loL;
    const loS = Math.floor(n * 0.05) + 1;
    const hiS = n + 1 - loS;
    const rl = averageRanks(Float64Array.from(logR));
    const ra = averageRanks(Float64Array.from(absE));
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      if (rl[i]! >= loL && rl[i]! <= hiL && ra[i]! >= loS && ra[i]! <= hiS) {
        num += logR[i]! / v[i]!;
        den += 1 / v[i]!;
      }
    }
    const fx = den > 0 ? num / den : 0;
    return 2 ** (Number.isFinite(fx) ? fx : 0);
  });
  const geo = Math.exp(f.reduce((a, x) => a + Math.log(x), 0) / nCols);
  return f.map((x) => x / geo);
}

/** limma's trigammaInverse (Newton iteration on the tetragamma). */
function trigammaInverse(x: number): number {
  if (x > 1e7) return 1 / Math.sqrt(x);
  if (x < 1e-6) return 1 / x;
  let y = 0.5 + 1 / x;
  for (let i = 0; i < 50; i++) {
    const tri = trigamma(y);
    const dif = (tri * (1 - tri / x)) / tetragamma(y);
    y += dif;
    if (-dif / y < 1e-8) break;
  }
  return y;
}

function tetragamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 2 / (x * x * x);
    x += 1;
  }
  const x2 = x * x;
  return (
    r -
    1 / x2 -
    1 / (x2 * x) -
    1 / (2 * x2 * x2) +
    1 / (6 * x2 * x2 * x2) -
    1 / (6 * x2 ** 4) +
    3 / (10 * x2 ** 5) -
    5 / (6 * x2 ** 6)
  );
}

export function limmaVoom(
  counts: Float64Array,
  nGenes: number,
  nCols: number,
  group: Uint8Array,
): VoomResult {
  const lib0 = new Float64Array(nCols);
  for (let g = 0; g < nGenes; g++) for (let j = 0; j < nCols; j++) lib0[j]! += counts[g * nCols + j]!;
  // filterByExpr (design ~ group): CPM ≥ 10/median(lib)·1e6 in ≥ min group size columns, total ≥ 15
  const n1 = group.reduce((a, b) => a + b, 0);
  let minSize = Math.min(n1, nCols - n1);
  if (minSize > 10) minSize = 10 + (minSize - 10) * 0.7;
  const medLib = quantile7(Float64Array.from(lib0).sort(), 0.5);
  const cpmCut = (10 / medLib) * 1e6;
  const genes: number[] = [];
  for (let g = 0; g < nGenes; g++) {
    let k = 0;
    let tot = 0;
    for (let j = 0; j < nCols; j++) {
      const c = counts[g * nCols + j]!;
      tot += c;
      if ((c / lib0[j]!) * 1e6 >= cpmCut) k++;
    }
    if (k >= minSize - 1e-14 && tot >= 15 - 1e-14) genes.push(g);
  }
  const G = genes.length;
  const sub = new Float64Array(G * nCols);
  genes.forEach((g, i) => sub.set(counts.subarray(g * nCols, (g + 1) * nCols), i * nCols));
  const lib = new Float64Array(nCols);
  for (let i = 0; i < G; i++) for (let j = 0; j < nCols; j++) lib[j]! += sub[i * nCols + j]!; // keep.lib.sizes = FALSE
  const nf = tmmFactors(sub, G, nCols, lib);
  const eff = lib.map((l, j) => l * nf[j]!);
  // voom
  const y = new Float64Array(G * nCols);
  for (let i = 0; i < G; i++)
    for (let j = 0; j < nCols; j++)
      y[i * nCols + j] = Math.log2(((sub[i * nCols + j]! + 0.5) / (eff[j]! + 1)) * 1e6);
  const cols1: number[] = [];
  const cols2: number[] = [];
  for (let j = 0; j < nCols; j++) (group[j] ? cols1 : cols2).push(j);
  const ols = (i: number) => {
    let m1 = 0;
    let m2 = 0;
    for (const j of cols1) m1 += y[i * nCols + j]!;
    for (const j of cols2) m2 += y[i * nCols + j]!;
    m1 /= cols1.length;
    m2 /= cols2.length;
    let rss = 0;
    for (let j = 0; j < nCols; j++) rss += (y[i * nCols + j]! - (group[j] ? m1 : m2)) ** 2;
    return { m1, m2, sigma: Math.sqrt(rss / (nCols - 2)) };
  };
  const meanLogLib = eff.reduce((a, l) => a + Math.log2(l + 1), 0) / nCols;
  const sx = new Float64Array(G);
  const sy = new Float64Array(G);
  const fits = Array.from({ length: G }, (_, i) => ols(i));
  for (let i = 0; i < G; i++) {
    let a = 0;
    for (let j = 0; j < nCols; j++) a += y[i * nCols + j]!;
    sx[i] = a / nCols + meanLogLib - Math.log2(1e6);
    sy[i] = Math.sqrt(fits[i]!.sigma);
  }
  const ord = Array.from(sx.keys()).sort((a, b) => sx[a]! - sx[b]!);
  const xs = Float64Array.from(ord, (i) => sx[i]!);
  const ysSorted = Float64Array.from(ord, (i) => sy[i]!);
  const trend = approxFun(xs, lowess(xs, ysSorted, 0.5));
  const w = new Float64Array(G * nCols);
  for (let i = 0; i < G; i++) {
    for (let j = 0; j < nCols; j++) {
      const mu = group[j] ? fits[i]!.m1 : fits[i]!.m2;
      const fittedCount = 1e-6 * 2 ** mu * (eff[j]! + 1);
      w[i * nCols + j] = 1 / trend(Math.log2(fittedCount)) ** 4;
    }
  }
  // lmFit (weighted) with design ~ group: coefficient = weighted mean group 1 − weighted mean group 2
  const df = nCols - 2;
  const logFC = new Float64Array(G);
  const aveExpr = new Float64Array(G);
  const s2 = new Float64Array(G);
  const unscaled = new Float64Array(G);
  for (let i = 0; i < G; i++) {
    let sw1 = 0;
    let sw2 = 0;
    let swy1 = 0;
    let swy2 = 0;
    let ave = 0;
    for (let j = 0; j < nCols; j++) {
      const wi = w[i * nCols + j]!;
      const yi = y[i * nCols + j]!;
      ave += yi;
      if (group[j]) {
        sw1 += wi;
        swy1 += wi * yi;
      } else {
        sw2 += wi;
        swy2 += wi * yi;
      }
    }
    const m1 = swy1 / sw1;
    const m2 = swy2 / sw2;
    let rss = 0;
    for (let j = 0; j < nCols; j++)
      rss += w[i * nCols + j]! * (y[i * nCols + j]! - (group[j] ? m1 : m2)) ** 2;
    logFC[i] = m1 - m2;
    aveExpr[i] = ave / nCols;
    s2[i] = rss / df;
    unscaled[i] = 1 / sw1 + 1 / sw2;
  }
  // eBayes: fitFDist
  let emean = 0;
  const e = Float64Array.from(s2, (v) => Math.log(Math.max(v, 1e-300)) - digamma(df / 2) + Math.log(df / 2));
  for (const v of e) emean += v;
  emean /= G;
  let evar = 0;
  for (const v of e) evar += (v - emean) ** 2;
  evar = evar / (G - 1) - trigamma(df / 2);
  let d0 = Infinity;
  let s02: number;
  if (evar > 0) {
    d0 = 2 * trigammaInverse(evar);
    s02 = Math.exp(emean + digamma(d0 / 2) - Math.log(d0 / 2));
  } else s02 = Math.exp(emean);
  const t = new Float64Array(G);
  const pval = new Float64Array(G);
  const dfTotal = Math.min(df + d0, G * df);
  for (let i = 0; i < G; i++) {
    const post = Number.isFinite(d0) ? (d0 * s02 + df * s2[i]!) / (d0 + df) : s02;
    t[i] = logFC[i]! / Math.sqrt(post * unscaled[i]!);
    pval[i] = Number.isFinite(dfTotal) ? studentTwoSidedP(t[i]!, dfTotal) : twoSidedNormalP(t[i]!);
  }
  return { genes, logFC, aveExpr, t, pval, padj: benjaminiHochberg(pval), normFactors: nf, priorDf: d0 };
}
