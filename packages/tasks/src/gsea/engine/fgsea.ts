import { storeyQvalues } from '../../_shared/engine/gene-sets/hypergeometric';
import { benjaminiHochberg, Random } from '@cellcloud/engine/tasks/kit';

/**
 * Preranked gene set enrichment with fgsea's simple permutation algorithm (fgseaSimple; gseaParam
 * 1): the enrichment score of a set of positions in a list ranked by decreasing metric is the
 * signed maximum deviation of the weighted running sum (calcGseaStat); its null distribution is
 * drawn from `nperm` random gene sets of the same size (the first k genes of one random sample per
 * permutation, shared by all sizes, as fgsea does). p = (#{ES_rand ≥ ES} + 1)/(#{ES_rand ≥ 0} + 1)
 * for ES ≥ 0 (mirror for ES < 0); NES = ES / mean(ES_rand of the same sign); BH over all sets.
 * The smallest p is 1/(nperm + 1) (fgsea's default multilevel method goes further into the tail).
 */
export interface GseaSetResult {
  es: number;
  nes: number;
  pval: number;
  padj: number;
  qval: number | null;
  /** 0-based position in the ranked list where the running sum peaks. */
  peak: number;
  /** Set positions in the leading edge (increasing). */
  leadingEdge: number[];
}

/** ES of increasing positions `pos[0..k)` in a list of `n` with weights |metric|. */
export function enrichmentScore(
  pos: ArrayLike<number>,
  k: number,
  absMetric: Float64Array,
  n: number,
): { es: number; peak: number } {
  let nr = 0;
  for (let j = 0; j < k; j++) nr += absMetric[pos[j]!]!;
  const miss = 1 / (n - k);
  let cum = 0;
  let maxP = -Infinity;
  let minP = Infinity;
  let atMax = 0;
  let atMin = 0;
  for (let j = 0; j < k; j++) {
    const p = pos[j]!;
    const missesBefore = p - j;
    const w = nr > 0 ? absMetric[p]! / nr : 1 / k;
    const bottom = cum - missesBefore * miss;
    cum += w;
    const top = cum - missesBefore * miss;
    if (top > maxP) {
      maxP = top;
      atMax = p;
    }
    if (bottom < minP) {
      minP = bottom;
      atMin = p;
    }
  }
  if (maxP > -minP) return { es: maxP, peak: atMax };
  if (maxP < -minP) return { es: minP, peak: atMin };
  return { es: 0, peak: atMax };
}

/** Running sum at every hit (before and after the step) for the running-score plot. */
export function runningScore(pos: ArrayLike<number>, absMetric: Float64Array, n: number): [number, number][] {
  const k = pos.length;
  let nr = 0;
  for (let j = 0; j < k; j++) nr += absMetric[pos[j]!]!;
  const miss = 1 / (n - k);
  const out: [number, number][] = [[0, 0]];
  let cum = 0;
  for (let j = 0; j < k; j++) {
    const p = pos[j]!;
    const base = -(p - j) * miss;
    out.push([p, cum + base]);
    cum += nr > 0 ? absMetric[pos[j]!]! / nr : 1 / k;
    out.push([p, cum + base]);
  }
  out.push([n, 0]);
  return out.map(([x, y]) => [x, Math.round(y * 1e6) / 1e6]);
}

export function fgseaSimple(
  metric: Float64Array,
  sets: Int32Array[],
  nperm: number,
  seed: number,
  onProgress?: (f: number) => void,
): GseaSetResult[] {
  const n = metric.length;
  const absMetric = Float64Array.from(metric, Math.abs);
  const observed = sets.map((s) => enrichmentScore(s, s.length, absMetric, n));
  const sizes = [...new Set(sets.map((s) => s.length))].sort((a, b) => a - b);
  const maxK = sizes[sizes.length - 1] ?? 0;
  const sizeSlot = new Int32Array(maxK + 1).fill(-1);
  sizes.forEach((k, i) => (sizeSlot[k] = i));
  // per size: the random ES values (nperm each)
  const rand = sizes.map(() => new Float64Array(nperm));
  const rng = new Random(seed);
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const sorted = new Int32Array(maxK);
  for (let it = 0; it < nperm; it++) {
    for (let j = 0; j < maxK; j++) {
      const r = j + rng.int(n - j);
      const t = perm[j]!;
      perm[j] = perm[r]!;
      perm[r] = t;
      // insert perm[j] into sorted[0..j)
      const v = perm[j]!;
      let lo = 0;
      let hi = j;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]! < v) lo = mid + 1;
        else hi = mid;
      }
      sorted.copyWithin(lo + 1, lo, j);
      sorted[lo] = v;
      const slot = sizeSlot[j + 1]!;
      if (slot >= 0) rand[slot]![it] = enrichmentScore(sorted, j + 1, absMetric, n).es;
    }
    if (onProgress && (it & 255) === 0) onProgress(it / nperm);
  }
  const stats = rand.map((r) => {
    let geZero = 0;
    let leZero = 0;
    let geSum = 0;
    let leSum = 0;
    for (const x of r) {
      if (x >= 0) {
        geZero++;
        geSum += x;
      }
      if (x <= 0) {
        leZero++;
        leSum += x;
      }
    }
    return { geZero, leZero, geMean: geZero ? geSum / geZero : 0, leMean: leZero ? leSum / leZero : 0 };
  });
  const out = sets.map((s, i) => {
    const { es, peak } = observed[i]!;
    const slot = sizeSlot[s.length]!;
    const r = rand[slot]!;
    const st = stats[slot]!;
    let ge = 0;
    let le = 0;
    for (const x of r) {
      if (x >= es) ge++;
      if (x <= es) le++;
    }
    const pval = es >= 0 ? (ge + 1) / (st.geZero + 1) : (le + 1) / (st.leZero + 1);
    const nes = es >= 0 ? (st.geMean > 0 ? es / st.geMean : NaN) : st.leMean < 0 ? es / -st.leMean : NaN;
    const leadingEdge = Array.from(s).filter((p) => (es >= 0 ? p <= peak : p >= peak));
    return { es, nes, pval: Math.min(1, pval), padj: 1, qval: null as number | null, peak, leadingEdge };
  });
  const p = Float64Array.from(out, (o) => o.pval);
  const adj = benjaminiHochberg(p);
  const q = storeyQvalues(p);
  out.forEach((o, i) => {
    o.padj = adj[i]!;
    o.qval = q ? q[i]! : null;
  });
  return out;
}
