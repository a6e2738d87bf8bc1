import { knnExact } from './knn';
import { checkLength, denseLabels } from './validate';

/**
 * Local Inverse Simpson's Index (Korsunsky et al. 2019, as the harmony/lisi R package computes
 * it): for each cell, a Gaussian kernel over its 3·perplexity nearest neighbours calibrated to the
 * given perplexity, then 1 / Σ_label p_label². With batch labels (iLISI) higher = better mixed;
 * with cell-type labels (cLISI) values near 1 = types kept apart.
 */
export function lisi(
  coords: ArrayLike<number>,
  nCells: number,
  dims: number,
  labels: ArrayLike<number>,
  opts: { perplexity?: number } = {},
): Float64Array {
  checkLength('lisi', 'labels', labels.length, nCells);
  const perplexity = opts.perplexity ?? 30;
  const k = Math.min(nCells - 1, Math.floor(perplexity * 3));
  const { indices, distances } = knnExact(coords, nCells, dims, k);
  const { codes, count } = denseLabels(labels);
  const out = new Float64Array(nCells);
  const p = new Float64Array(k);
  const perLabel = new Float64Array(count);
  const logU = Math.log(perplexity);
  for (let i = 0; i < nCells; i++) {
    const dist = distances.subarray(i * k, i * k + k);
    let beta = 1;
    let betaMin = -Infinity;
    let betaMax = Infinity;
    let h = hBeta(dist, beta, p);
    for (let tries = 0; Math.abs(h - logU) > 1e-5 && tries < 50; tries++) {
      if (h - logU > 0) {
        betaMin = beta;
        beta = betaMax === Infinity ? beta * 2 : (beta + betaMax) / 2;
      } else {
        betaMax = beta;
        beta = betaMin === -Infinity ? beta / 2 : (beta + betaMin) / 2;
      }
      h = hBeta(dist, beta, p);
    }
    perLabel.fill(0);
    for (let t = 0; t < k; t++) perLabel[codes[indices[i * k + t]]] += p[t];
    let simpson = 0;
    for (let c = 0; c < count; c++) simpson += perLabel[c] * perLabel[c];
    out[i] = simpson > 0 ? 1 / simpson : 1;
  }
  return out;
}

/** Entropy of the kernel exp(−beta·d) (normalised into p). */
function hBeta(dist: Float64Array, beta: number, p: Float64Array): number {
  let sum = 0;
  let weighted = 0;
  for (let t = 0; t < dist.length; t++) {
    p[t] = Math.exp(-dist[t] * beta);
    sum += p[t];
    weighted += dist[t] * p[t];
  }
  if (sum === 0) {
    p.fill(1 / dist.length);
    return 0;
  }
  for (let t = 0; t < dist.length; t++) p[t] /= sum;
  return Math.log(sum) + (beta * weighted) / sum;
}
