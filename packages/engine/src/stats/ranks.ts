/**
 * Ranks 1…n of the values in ascending order, ties given their average rank (R's
 * `rank(ties.method = "average")`). Used by Spearman correlation (trajectory) and TMM / limma-voom
 * (deg-groups).
 */
export function averageRanks(x: ArrayLike<number>): Float64Array {
  const idx = Array.from({ length: x.length }, (_, i) => i).sort((i, j) => x[i]! - x[j]!);
  const r = new Float64Array(x.length);
  for (let s = 0; s < idx.length;) {
    let e = s;
    while (e + 1 < idx.length && x[idx[e + 1]!] === x[idx[s]!]) e++;
    for (let k = s; k <= e; k++) r[idx[k]!] = (s + e) / 2 + 1;
    s = e + 1;
  }
  return r;
}
