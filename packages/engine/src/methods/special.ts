/** Digamma, trigamma and inverse digamma (for Dirichlet maximum-likelihood fits). */

export function digamma(x: number): number {
  let result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return (
    result + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))))
  );
}

export function trigamma(x: number): number {
  let result = 0;
  while (x < 6) {
    result += 1 / (x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return result + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

/** y with digamma(y) = x (Minka 2000: initial guess then Newton steps). */
export function inverseDigamma(x: number): number {
  let y = x >= -2.22 ? Math.exp(x) + 0.5 : -1 / (x - digamma(1));
  for (let i = 0; i < 8; i++) y -= (digamma(y) - x) / trigamma(y);
  return y;
}

/**
 * Maximum-likelihood Dirichlet parameters of proportion vectors (rows of a row-major n × k
 * matrix), Minka's fixed-point iteration from a method-of-moments start, as
 * MCMCprecision::fit_dirichlet (used by celda's decontX to update delta).
 */
export function fitDirichlet(
  x: Float64Array,
  n: number,
  k: number,
  opts: { maxIter?: number; tol?: number } = {},
): Float64Array {
  const eps = 1e-10;
  const meanLog = new Float64Array(k);
  const mean = new Float64Array(k);
  let sq0 = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const v = Math.min(1 - eps, Math.max(eps, x[i * k + j]));
      meanLog[j] += Math.log(v) / n;
      mean[j] += v / n;
    }
    const v0 = Math.min(1 - eps, Math.max(eps, x[i * k]));
    sq0 += (v0 * v0) / n;
  }
  const variance0 = sq0 - mean[0] * mean[0];
  const precision = variance0 > 0 ? Math.max(1e-3, (mean[0] * (1 - mean[0])) / variance0 - 1) : 1;
  let alpha = mean.map((m) => m * precision);
  const maxIter = opts.maxIter ?? 10000;
  const tol = opts.tol ?? 1e-8;
  for (let it = 0; it < maxIter; it++) {
    let total = 0;
    for (let j = 0; j < k; j++) total += alpha[j];
    const dTotal = digamma(total);
    const next = meanLog.map((ml) => inverseDigamma(dTotal + ml));
    let change = 0;
    for (let j = 0; j < k; j++) change += Math.abs(next[j] - alpha[j]);
    alpha = next;
    if (change < tol * Math.max(1, total)) break;
  }
  return alpha;
}
