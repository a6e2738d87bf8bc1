import { solveDense } from '@cellcloud/engine/methods/linalg';

/**
 * The model pieces of monocle 2's negbinomial.size fits (VGAM): the parametric dispersion fit
 * (estimateDispersions), the natural cubic spline basis of pseudotime (splines::ns, df 3), and a
 * log-link NB GLM with fixed size θ fitted by IRLS with step halving. Tests on top of them:
 * monocle2/diff-test.ts (differentialGeneTest, BEAM).
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
export function nbLogLik(y: ArrayLike<number>, mu: ArrayLike<number>, theta: number): number {
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
