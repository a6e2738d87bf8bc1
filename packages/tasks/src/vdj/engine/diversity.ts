/**
 * Repertoire diversity of one sample from its clone sizes (cells per clonotype), the indices
 * immunarch `repDiversity` reports (docs/methods/vdj.md 02.sc.Diversity):
 *   chao1        S + F1² / (2·F2) (bias-corrected S + F1·(F1 − 1) / 2 when F2 = 0), F1/F2 = clones seen once/twice
 *   hill_q0..q2  Hill numbers: q0 = S, q1 = exp(Shannon entropy), q2 = 1 / Σ p²
 *   inv_simpson  1 / Σ p²
 *   d50          the fewest clonotypes (largest first) that together hold ≥ 50 % of the cells
 */
export interface Diversity {
  clonotypes: number;
  cells: number;
  chao1: number;
  hill_q0: number;
  hill_q1: number;
  hill_q2: number;
  inv_simpson: number;
  d50: number;
}

export function diversityOf(sizes: readonly number[]): Diversity {
  const s = sizes.filter((x) => x > 0);
  const n = s.reduce((a, b) => a + b, 0);
  const S = s.length;
  const f1 = s.filter((x) => x === 1).length;
  const f2 = s.filter((x) => x === 2).length;
  const chao1 = f2 > 0 ? S + (f1 * f1) / (2 * f2) : S + (f1 * (f1 - 1)) / 2;
  let shannon = 0;
  let sumSq = 0;
  for (const x of s) {
    const p = x / n;
    shannon -= p * Math.log(p);
    sumSq += p * p;
  }
  const sorted = [...s].sort((a, b) => b - a);
  let acc = 0;
  let d50 = 0;
  for (const x of sorted) {
    acc += x;
    d50++;
    if (acc * 2 >= n) break;
  }
  return {
    clonotypes: S,
    cells: n,
    chao1,
    hill_q0: S,
    hill_q1: n > 0 ? Math.exp(shannon) : 0,
    hill_q2: sumSq > 0 ? 1 / sumSq : 0,
    inv_simpson: sumSq > 0 ? 1 / sumSq : 0,
    d50: n > 0 ? d50 : 0,
  };
}

/** Cosine distance between two samples' clonotype proportion vectors (docs/methods/vdj.md cosine + hclust). */
export function cosineDistance(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na > 0 && nb > 0 ? 1 - dot / Math.sqrt(na * nb) : 1;
}
