/**
 * Two-sided normal tail p = P(|Z| ≥ |z|) = erfc(|z|/√2), accurate in relative terms far into the
 * tail (tiny marker p-values must not round to 0 too early). erfc uses the all-positive series
 * erf(x) = 2/√π·e^(−x²)·Σ 2ⁿx^(2n+1)/(1·3·…·(2n+1)) below 3 and a Lentz continued fraction above.
 */
export function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  }
  // erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), modified Lentz.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

export function twoSidedNormalP(z: number): number {
  if (!Number.isFinite(z)) return Number.isNaN(z) ? 1 : 0;
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** Benjamini–Hochberg adjusted p-values (statsmodels fdr_bh), same order as the input. */
export function benjaminiHochberg(p: Float64Array): Float64Array {
  const n = p.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p[a] - p[b]);
  const out = new Float64Array(n);
  let running = 1;
  for (let r = n - 1; r >= 0; r--) {
    const i = order[r];
    running = Math.min(running, (p[i] * n) / (r + 1));
    out[i] = running;
  }
  return out;
}
