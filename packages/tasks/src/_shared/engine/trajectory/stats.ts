import { averageRanks } from '@cellcloud/engine/stats/ranks';
/**
 * Statistics shared by the trajectory tasks (monocle2, monocle3): p-value adjustment, Spearman
 * correlation, and the normal / χ² tails of their tests (one Chebyshev erfc for all of them).
 */

/** Benjamini–Hochberg adjusted p-values (NaN stays NaN and is not counted). */
export function bhAdjust(p: ArrayLike<number>): Float64Array {
  const idx: number[] = [];
  for (let i = 0; i < p.length; i++) if (Number.isFinite(p[i]!)) idx.push(i);
  idx.sort((a, b) => p[b]! - p[a]!);
  const out = new Float64Array(p.length).fill(NaN);
  const m = idx.length;
  let min = 1;
  idx.forEach((i, r) => {
    const v = Math.min(1, (p[i]! * m) / (m - r));
    if (v < min) min = v;
    out[i] = min;
  });
  return out;
}

/** Holm adjusted p-values (R p.adjust's default). */
export function holmAdjust(p: ArrayLike<number>): Float64Array {
  const idx = Array.from({ length: p.length }, (_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const out = new Float64Array(p.length);
  let max = 0;
  idx.forEach((i, r) => {
    const v = Math.min(1, (p.length - r) * p[i]!);
    if (v > max) max = v;
    out[i] = max;
  });
  return out;
}

/** Spearman rank correlation (average ranks for ties). */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ra = averageRanks(a);
  const rb = averageRanks(b);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < ra.length; i++) {
    ma += ra[i]!;
    mb += rb[i]!;
  }
  ma /= ra.length;
  mb /= rb.length;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < ra.length; i++) {
    sab += (ra[i]! - ma) * (rb[i]! - mb);
    saa += (ra[i]! - ma) ** 2;
    sbb += (rb[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** Upper-tail standard normal probability. */
export function pnormUpper(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** Numerical Recipes erfcc (Chebyshev), relative error < 1.2e-7. */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Upper tail of χ² with 3 degrees of freedom. */
export function pchisq3Upper(x: number): number {
  if (!(x > 0)) return 1;
  const s = Math.sqrt(x / 2);
  return erfc(s) + Math.sqrt((2 * x) / Math.PI) * Math.exp(-x / 2);
}

/** Upper tail of χ² with 4 degrees of freedom. */
export function pchisq4Upper(x: number): number {
  if (!(x > 0)) return 1;
  return Math.exp(-x / 2) * (1 + x / 2);
}
