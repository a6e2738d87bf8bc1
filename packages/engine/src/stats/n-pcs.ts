/**
 * Number of PCs for the graph from the PCA variance ratios (docs/methods/pipeline.md#number-of-pcs get_n_pcs; docs/product/validation.md
 * "cumulative contribution above 90%"). Ratios are fractions of the total variance.
 *  i = first PC (1-based) with cumulative > 90% and its own share < 5%;
 *  k = (last position where the drop between consecutive PCs exceeds 0.1 percentage points) + 1;
 *  result = min(k, i), i ignored when never reached; at least 2.
 */
export function choosePcCount(varianceRatio: ArrayLike<number>): number {
  const pct = Array.from(varianceRatio, (r) => r * 100);
  let cum = 0;
  let i = Infinity;
  for (let j = 0; j < pct.length; j++) {
    cum += pct[j];
    if (cum > 90 && pct[j] < 5) {
      i = j + 1;
      break;
    }
  }
  let lastDrop = -1;
  for (let j = 0; j + 1 < pct.length; j++) if (pct[j] - pct[j + 1] > 0.1) lastDrop = j + 1;
  const k = lastDrop + 1;
  return Math.max(2, Math.min(pct.length, k > 0 ? Math.min(k, i) : Number.isFinite(i) ? i : pct.length));
}
