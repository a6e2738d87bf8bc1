import { solveDense } from '../../methods/linalg';
import { pchisq3Upper, pchisq4Upper } from '../trajectory/stats';

/**
 * monocle 2's differentialGeneTest(fullModelFormulaStr = "~sm.ns(Pseudotime)") with the
 * negbinomial.size family: response round(count / size factor), fixed size 1/dispersion (the
 * parametric dispersion fit at the gene's mean raw count, as calculate_NB_dispersion_hint), a
 * log-link NB GLM on intercept + natural cubic spline of pseudotime with 3 degrees of freedom
 * (splines::ns: interior knots at the 1/3 and 2/3 quantiles, boundary knots at the range) against
 * the intercept-only model, likelihood-ratio test on 3 df; BH q values. The spline basis here is
 * the truncated-power natural-spline basis, which spans the same space as ns(), so fits and
 * likelihoods are the same. Also genSmoothCurves (fitted means on new pseudotimes).
 */

export interface DispersionFit {
  /** asymptDisp + extraPois / mu */
  a: number;
  b: number;
  ok: boolean;
}

/**
 * monocle estimateDispersions (negbinomial.size, "parametric" fit on the pooled per-gene
 * method-of-moments dispersions of size-normalised counts, DESeq's parametricDispersionFit: a Gamma
 * GLM with identity link of disp on 1/mu, outliers (residual ≥ 10⁴) dropped, ≤ 10 refits).
 */
export function fitDispersions(mu: Float64Array, disp: Float64Array): DispersionFit {
  let a = 1e-6;
  let b = 1;
  for (let iter = 0; iter < 11; iter++) {
    const keep: number[] = [];
    for (let g = 0; g < mu.length; g++) {
      if (!(mu[g]! > 0) || !(disp[g]! > 0)) continue;
      if (disp[g]! / (a + b / mu[g]!) < 10_000) keep.push(g);
    }
    if (keep.length < 3) return { a, b, ok: false };
    // Gamma GLM, identity link: IRLS with weights 1/fitted²
    let ca = a;
    let cb = b;
    for (let inner = 0; inner < 50; inner++) {
      let s00 = 0;
      let s01 = 0;
      let s11 = 0;
      let t0 = 0;
      let t1 = 0;
      for (const g of keep) {
        const x = 1 / mu[g]!;
        const f = Math.max(1e-12, ca + cb * x);
        const w = 1 / (f * f);
        s00 += w;
        s01 += w * x;
        s11 += w * x * x;
        t0 += w * disp[g]!;
        t1 += w * x * disp[g]!;
      }
      const det = s00 * s11 - s01 * s01;
      if (!(Math.abs(det) > 0)) return { a, b, ok: false };
      const na = (s11 * t0 - s01 * t1) / det;
      const nb = (s00 * t1 - s01 * t0) / det;
      const done =
        Math.abs(na - ca) <= 1e-10 * Math.abs(ca) + 1e-14 &&
        Math.abs(nb - cb) <= 1e-10 * Math.abs(cb) + 1e-14;
      ca = na;
      cb = nb;
      if (done) break;
    }
    const old = [a, b];
    a = Math.max(1e-6, ca);
    b = cb;
    if (b < 0) return { a, b, ok: false };
    if (Math.log(a / old[0]!) ** 2 + Math.log(b / old[1]!) ** 2 < 1e-6) break;
  }
  return { a, b, ok: true };
}

/** Columns (without intercept) of a natural cubic spline basis with df 3 on x. */
export function nsBasis(x: ArrayLike<number>): { design: (t: number) => number[]; knots: number[] } {
  const sorted = Array.from(x).sort((p, q) => p - q);
  const q = (p: number) => {
    const h = (sorted.length - 1) * p;
    const lo = Math.floor(h);
    return (
      sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]!) - sorted[lo]!)
    );
  };
  const lo = sorted[0]!;
  const hi = sorted[sorted.length - 1]!;
  const span = hi - lo || 1;
  const knots = [lo, q(1 / 3), q(2 / 3), hi].map((k) => (k - lo) / span);
  const K = knots.length;
  const cube = (v: number) => (v > 0 ? v * v * v : 0);
  const dk = (t: number, k: number) =>
    (cube(t - knots[k]!) - cube(t - knots[K - 1]!)) / (knots[K - 1]! - knots[k]! || 1);
  return {
    knots,
    design: (tRaw: number) => {
      const t = (tRaw - lo) / span;
      return [t, dk(t, 0) - dk(t, K - 2), dk(t, 1) - dk(t, K - 2)];
    },
  };
}

/**
 * The μ-dependent part of the NB log-likelihood (the lgamma terms depend on y and θ only, so they
 * cancel in the likelihood-ratio statistic and in the convergence checks).
 */
function nbLogLik(y: ArrayLike<number>, mu: ArrayLike<number>, theta: number): number {
  let ll = 0;
  for (let i = 0; i < y.length; i++) {
    const yi = y[i]!;
    const m = Math.max(mu[i]!, 1e-300);
    const lt = Math.log(theta + m);
    ll += theta * (Math.log(theta) - lt) + (yi > 0 ? yi * (Math.log(m) - lt) : 0);
  }
  return ll;
}

export interface NbFit {
  beta: Float64Array;
  ll: number;
  ok: boolean;
}

/** IRLS for a log-link NB GLM with fixed size theta; X row-major n × p. */
export function fitNbGlm(X: Float64Array, n: number, p: number, y: ArrayLike<number>, theta: number): NbFit {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  mean /= n;
  const beta = new Float64Array(p);
  beta[0] = Math.log(Math.max(mean, 1e-8));
  const eta = new Float64Array(n).fill(beta[0]);
  const mu = new Float64Array(n).fill(Math.exp(beta[0]));
  let prevLl = -Infinity;
  let ll = nbLogLik(y, mu, theta);
  for (let iter = 0; iter < 30; iter++) {
    const XtWX = new Float64Array(p * p);
    const XtWz = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      const m = mu[i]!;
      const w = m / (1 + m / theta);
      const z = eta[i]! + (y[i]! - m) / m;
      const o = i * p;
      for (let a = 0; a < p; a++) {
        const xa = X[o + a]! * w;
        XtWz[a] += xa * z;
        for (let b = a; b < p; b++) XtWX[a * p + b] += xa * X[o + b]!;
      }
    }
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < a; b++) XtWX[a * p + b] = XtWX[b * p + a]!;
      XtWX[a * p + a] += 1e-10;
    }
    let nb: Float64Array;
    try {
      nb = solveDense(XtWX, XtWz, p, 1);
    } catch {
      return { beta, ll, ok: false };
    }
    // step halving if the likelihood drops
    let step = 1;
    for (let h = 0; h < 10; h++) {
      const cand = Float64Array.from(beta, (b, a) => b + step * (nb[a]! - b));
      for (let i = 0; i < n; i++) {
        let e = 0;
        for (let a = 0; a < p; a++) e += X[i * p + a]! * cand[a]!;
        eta[i] = Math.min(30, e);
        mu[i] = Math.exp(eta[i]!);
      }
      const cl = nbLogLik(y, mu, theta);
      if (cl >= ll - 1e-10 || h === 9) {
        beta.set(cand);
        prevLl = ll;
        ll = cl;
        break;
      }
      step /= 2;
    }
    if (Math.abs(ll - prevLl) < 1e-8 * (Math.abs(ll) + 1)) break;
  }
  return { beta, ll, ok: Number.isFinite(ll) };
}

export interface DiffTestRow {
  status: 'OK' | 'FAIL';
  pval: number;
  qval: number;
  beta: Float64Array | undefined;
  theta: number;
}

/** The LRT for one gene: y = round(count/sf), pseudotime per cell. */
export function pseudotimeTest(y: Float64Array, X: Float64Array, n: number, theta: number): DiffTestRow {
  const p = 4;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  mean /= n;
  if (!(mean > 0)) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const full = fitNbGlm(X, n, p, y, theta);
  const red = nbLogLik(y, new Float64Array(n).fill(mean), theta);
  if (!full.ok) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const stat = Math.max(0, 2 * (full.ll - red));
  return { status: 'OK', pval: pchisq3Upper(stat), qval: NaN, beta: full.beta, theta };
}

/** hclust(method = "ward.D2") then cutree(k): cluster (1-based, numbered by first observation) of every item. */
export function wardCut(dist: Float64Array, n: number, k: number): Int32Array {
  const D = Float64Array.from(dist, (v) => v * v);
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
  let clusters = n;
  while (clusters > Math.max(1, k)) {
    let bi = -1;
    let bj = -1;
    let bd = Infinity;
    for (let i = 0; i < n; i++) {
      if (!active[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (!active[j]) continue;
        if (D[i * n + j]! < bd) {
          bd = D[i * n + j]!;
          bi = i;
          bj = j;
        }
      }
    }
    for (let m = 0; m < n; m++) {
      if (!active[m] || m === bi || m === bj) continue;
      const v =
        ((size[bi]! + size[m]!) * D[bi * n + m]! + (size[bj]! + size[m]!) * D[bj * n + m]! - size[m]! * bd) /
        (size[bi]! + size[bj]! + size[m]!);
      D[bi * n + m] = v;
      D[m * n + bi] = v;
    }
    size[bi] += size[bj]!;
    members[bi]!.push(...members[bj]!);
    active[bj] = 0;
    clusters--;
  }
  const out = new Int32Array(n);
  const label = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const root = members.findIndex((m, r) => active[r] && m.includes(i));
    if (!label.has(root)) label.set(root, label.size + 1);
    out[i] = label.get(root)!;
  }
  return out;
}

/**
 * BEAM's test for one gene: full ~sm.ns(Pseudotime, df = 3) * Branch against the reduced
 * ~sm.ns(Pseudotime, df = 3) (LRT on 4 df), on the branch-duplicated cells.
 */
export function beamTest(
  y: Float64Array,
  Xfull: Float64Array,
  Xred: Float64Array,
  n: number,
  theta: number,
): DiffTestRow {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  if (!(mean > 0)) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const full = fitNbGlm(Xfull, n, 8, y, theta);
  const red = fitNbGlm(Xred, n, 4, y, theta);
  if (!full.ok || !red.ok) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  return {
    status: 'OK',
    pval: pchisq4Upper(Math.max(0, 2 * (full.ll - red.ll))),
    qval: NaN,
    beta: full.beta,
    theta,
  };
}
