/**
 * Automatic threshold between the two modes of a histogram, as scikit-image's
 * `threshold_minimum` (Scrublet's `call_doublets` uses it on the simulated doublet scores):
 * 256-bin histogram over [min, max], smoothed with a 3-point running mean (reflect boundary)
 * until at most two local maxima remain; the threshold is the centre of the lowest bin between
 * them. Returns `undefined` when the histogram never shows exactly two maxima.
 */
export function thresholdMinimum(
  values: ArrayLike<number>,
  nBins = 256,
  maxIter = 10000,
): number | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    min = Math.min(min, values[i]);
    max = Math.max(max, values[i]);
  }
  if (!(max > min)) return undefined;
  const width = (max - min) / nBins;
  let hist: Float64Array = new Float64Array(nBins);
  for (let i = 0; i < values.length; i++) {
    const b = Math.min(nBins - 1, Math.floor((values[i] - min) / width));
    hist[b]++;
  }
  let maxima: number[] = [];
  let counter = 0;
  for (counter = 0; counter < maxIter; counter++) {
    hist = smooth3(hist);
    maxima = localMaxima(hist);
    if (maxima.length < 3) break;
  }
  if (maxima.length !== 2 || counter === maxIter - 1) return undefined;
  let best = maxima[0];
  for (let i = maxima[0]; i <= maxima[1]; i++) if (hist[i] < hist[best]) best = i;
  return min + (best + 0.5) * width;
}

function smooth3(h: Float64Array): Float64Array {
  const n = h.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const left = h[i === 0 ? 0 : i - 1];
    const right = h[i === n - 1 ? n - 1 : i + 1];
    out[i] = (left + h[i] + right) / 3;
  }
  return out;
}

function localMaxima(h: Float64Array): number[] {
  const maxima: number[] = [];
  let direction = 1;
  for (let i = 0; i < h.length - 1; i++) {
    if (direction > 0) {
      if (h[i + 1] < h[i]) {
        direction = -1;
        maxima.push(i);
      }
    } else if (h[i + 1] > h[i]) {
      direction = 1;
    }
  }
  return maxima;
}
