/**
 * Hypergeometric upper tail and Storey q-values as clusterProfiler's enricher uses them:
 * p = phyper(k − 1, M, N − M, n, lower.tail = FALSE), q = qvalue(p, lambda = 0.05)$qvalues.
 *
 * The point probability follows Loader's saddle-point form (R's dhyper via dbinom_raw, stirlerr and
 * bd0), accurate to a few ulps in relative terms even for tiny p; the tail is the point probability
 * times the sum of the term ratios (all positive, so no cancellation).
 */

const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const LOG_FACT: number[] = [0];
for (let i = 1; i <= 30; i++) LOG_FACT.push(LOG_FACT[i - 1]! + Math.log(i));

/** stirlerr(n) = log(n!) − log(√(2π n) (n/e)^n) for integer n ≥ 0. */
function stirlerr(n: number): number {
  if (n <= 15) {
    if (n === 0) return 0; // not used (callers avoid x = 0)
    return LOG_FACT[n]! - (n + 0.5) * Math.log(n) + n - LN_SQRT_2PI;
  }
  const nn = n * n;
  const S0 = 1 / 12;
  const S1 = 1 / 360;
  const S2 = 1 / 1260;
  const S3 = 1 / 1680;
  const S4 = 1 / 1188;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

/** bd0(x, np) = x log(x/np) + np − x, with the series for x ≈ np. */
function bd0(x: number, np: number): number {
  if (Math.abs(x - np) < 0.1 * (x + np)) {
    let v = (x - np) / (x + np);
    const s0 = (x - np) * v;
    let s = s0;
    let ej = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const s1 = s + ej / (2 * j + 1);
      if (s1 === s) return s1;
      s = s1;
    }
    return s;
  }
  return x * Math.log(x / np) + np - x;
}

function dbinomRaw(x: number, n: number, p: number, q: number): number {
  if (p === 0) return x === 0 ? 1 : 0;
  if (q === 0) return x === n ? 1 : 0;
  if (x === 0) {
    if (n === 0) return 1;
    return Math.exp(p < 0.1 ? -bd0(n, n * q) - n * p : n * Math.log(q));
  }
  if (x === n) return Math.exp(q < 0.1 ? -bd0(n, n * p) - n * q : n * Math.log(p));
  if (x < 0 || x > n) return 0;
  const lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
  const lf = Math.log(2 * Math.PI) + Math.log(x) + Math.log1p(-x / n);
  return Math.exp(lc - 0.5 * lf);
}

/** P(X = x) for X ~ Hypergeometric: r white balls, b black balls, n drawn (R's dhyper(x, r, b, n)). */
export function dhyper(x: number, r: number, b: number, n: number): number {
  if (x < 0 || x > r || n - x > b || n - x < 0) return 0;
  if (n === 0) return x === 0 ? 1 : 0;
  const p = n / (r + b);
  const q = (r + b - n) / (r + b);
  const p1 = dbinomRaw(x, r, p, q);
  const p2 = dbinomRaw(n - x, b, p, q);
  const p3 = dbinomRaw(n, r + b, p, q);
  return (p1 * p2) / p3;
}

/**
 * P(X ≥ k): k hits among n drawn from N genes of which M are in the set.
 * Equals R's phyper(k − 1, M, N − M, n, lower.tail = FALSE).
 */
export function hypergeometricUpper(k: number, M: number, N: number, n: number): number {
  const hi = Math.min(n, M);
  if (k <= Math.max(0, n - (N - M))) return 1;
  if (k > hi) return 0;
  const d = dhyper(k, M, N - M, n);
  let sum = 1;
  let term = 1;
  for (let x = k; x < hi; x++) {
    term *= ((M - x) * (n - x)) / ((x + 1) * (N - M - n + x + 1));
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return Math.min(1, d * sum);
}

/**
 * Storey q-values as `qvalue::qvalue(p, lambda = 0.05)` (one λ: π0 = min(1, #{p ≥ λ}/(m(1 − λ))),
 * q = π0 · cummin over decreasing p of p·m/rank, capped at 1). Returns null when π0 = 0 (qvalue
 * stops with an error there and clusterProfiler reports NA).
 */
export function storeyQvalues(p: ArrayLike<number>, lambda = 0.05): Float64Array | null {
  const m = p.length;
  if (!m) return new Float64Array(0);
  let above = 0;
  for (let i = 0; i < m; i++) if (p[i]! >= lambda) above++;
  const pi0 = Math.min(1, above / m / (1 - lambda));
  if (pi0 <= 0) return null;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => p[b]! - p[a]! || b - a);
  const q = new Float64Array(m);
  let run = Infinity;
  order.forEach((i, j) => {
    const rank = m - j; // order is decreasing p, so the j-th has rank m − j
    run = Math.min(run, (p[i]! * m) / rank);
    q[i] = pi0 * Math.min(1, run);
  });
  return q;
}
