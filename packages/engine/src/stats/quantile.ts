/** numpy.percentile with the default 'linear' interpolation; q in [0, 100]. */
export function percentile(values: ArrayLike<number>, q: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const pos = ((n - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Five-number summary plus mean, for the cell-filtering evaluation distributions. */
export interface Distribution {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

export function distribution(values: ArrayLike<number>): Distribution {
  if (values.length === 0) return { min: NaN, q1: NaN, median: NaN, q3: NaN, max: NaN, mean: NaN };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (values[i] < min) min = values[i];
    if (values[i] > max) max = values[i];
  }
  return {
    min,
    q1: percentile(values, 25),
    median: percentile(values, 50),
    q3: percentile(values, 75),
    max,
    mean: sum / values.length,
  };
}
