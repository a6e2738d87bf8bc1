import { fitNbGlm, nbLogLik } from '../../_shared/engine/trajectory/nb-glm';
import { pchisq3Upper, pchisq4Upper } from '../../_shared/engine/trajectory/stats';

/**
 * monocle 2's differentialGeneTest(fullModelFormulaStr = "~sm.ns(Pseudotime)") with the
 * negbinomial.size family: response round(count / size factor), fixed size 1/dispersion (the
 * parametric dispersion fit at the gene's mean raw count, as calculate_NB_dispersion_hint), a
 * log-link NB GLM on intercept + natural cubic spline of pseudotime with 3 degrees of freedom
 * (splines::ns: interior knots at the 1/3 and 2/3 quantiles, boundary knots at the range) against
 * the intercept-only model, likelihood-ratio test on 3 df; BH q values. The spline basis here is
 * the truncated-power natural-spline basis, which spans the same space as ns(), so fits and
 * likelihoods are the same. Also genSmoothCurves (fitted means on new pseudotimes). The fits
 * themselves (dispersions, spline basis, NB GLM): ../trajectory/nb-glm.ts.
 */

export interface DiffTestRow {
  status: 'OK' | 'FAIL';
  pval: number;
  qval: number;
  beta: Float64Array | undefined;
  theta: number;
}

/** The LRT for one gene: y = round(count/sf), pseudotime per cell. */
export function pseudotimeTest(y: Float64Array, X: Float64Array, n: number, theta: number): DiffTestRow {
  const p = 4;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  mean /= n;
  if (!(mean > 0)) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const full = fitNbGlm(X, n, p, y, theta);
  const red = nbLogLik(y, new Float64Array(n).fill(mean), theta);
  if (!full.ok) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const stat = Math.max(0, 2 * (full.ll - red));
  return { status: 'OK', pval: pchisq3Upper(stat), qval: NaN, beta: full.beta, theta };
}

/** hclust(method = "ward.D2") then cutree(k): cluster (1-based, numbered by first observation) of every item. */
export function wardCut(dist: Float64Array, n: number, k: number): Int32Array {
  const D = Float64Array.from(dist, (v) => v * v);
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const members: number[][] = Array.from({ length: n }, (_, i) => [i]);
  let clusters = n;
  while (clusters > Math.max(1, k)) {
    let bi = -1;
    let bj = -1;
    let bd = Infinity;
    for (let i = 0; i < n; i++) {
      if (!active[i]) continue;
      for (let j = i + 1; j < n; j++) {
        if (!active[j]) continue;
        if (D[i * n + j]! < bd) {
          bd = D[i * n + j]!;
          bi = i;
          bj = j;
        }
      }
    }
    for (let m = 0; m < n; m++) {
      if (!active[m] || m === bi || m === bj) continue;
      const v =
        ((size[bi]! + size[m]!) * D[bi * n + m]! + (size[bj]! + size[m]!) * D[bj * n + m]! - size[m]! * bd) /
        (size[bi]! + size[bj]! + size[m]!);
      D[bi * n + m] = v;
      D[m * n + bi] = v;
    }
    size[bi] += size[bj]!;
    members[bi]!.push(...members[bj]!);
    active[bj] = 0;
    clusters--;
  }
  const out = new Int32Array(n);
  const label = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const root = members.findIndex((m, r) => active[r] && m.includes(i));
    if (!label.has(root)) label.set(root, label.size + 1);
    out[i] = label.get(root)!;
  }
  return out;
}

/**
 * BEAM's test for one gene: full ~sm.ns(Pseudotime, df = 3) * Branch against the reduced
 * ~sm.ns(Pseudotime, df = 3) (LRT on 4 df), on the branch-duplicated cells.
 */
export function beamTest(
  y: Float64Array,
  Xfull: Float64Array,
  Xred: Float64Array,
  n: number,
  theta: number,
): DiffTestRow {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i]!;
  if (!(mean > 0)) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  const full = fitNbGlm(Xfull, n, 8, y, theta);
  const red = fitNbGlm(Xred, n, 4, y, theta);
  if (!full.ok || !red.ok) return { status: 'FAIL', pval: NaN, qval: NaN, beta: undefined, theta };
  return {
    status: 'OK',
    pval: pchisq4Upper(Math.max(0, 2 * (full.ll - red.ll))),
    qval: NaN,
    beta: full.beta,
    theta,
  };
}
