/**
 * R's lowess (clowess: tricube local linear fits, `iter` robustness iterations, `delta` skipping
 * with linear interpolation) on points sorted by x, as limma's voom uses it (f = 0.5, iter = 3,
 * delta = 0.01 · range(x)). Returns the fitted y at each (sorted) x.
 */
export function lowess(
  x: Float64Array,
  y: Float64Array,
  f: number,
  iter = 3,
  delta = 0.01 * (x[x.length - 1]! - x[0]!),
): Float64Array {
  const n = x.length;
  const ys = new Float64Array(n);
  if (n < 2) {
    ys.set(y);
    return ys;
  }
  const ns = Math.max(Math.min(Math.round(f * n), n), 2);
  const rw = new Float64Array(n);
  const res = new Float64Array(n);
  const w = new Float64Array(n);
  const range = x[n - 1]! - x[0]!;
  const lowest = (xs: number, nleft: number, nright: number, userw: boolean): number | null => {
    const h = Math.max(xs - x[nleft]!, x[nright]! - xs);
    const h9 = 0.999 * h;
    const h1 = 0.001 * h;
    let a = 0;
    let j = nleft;
    while (j < n) {
      w[j] = 0;
      const r = Math.abs(x[j]! - xs);
      if (r <= h9) {
        w[j] = r <= h1 ? 1 : (1 - (r / h) ** 3) ** 3;
        if (userw) w[j]! *= rw[j]!;
        a += w[j]!;
      } else if (x[j]! > xs) break;
      j++;
    }
    const nrt = j - 1;
    if (a <= 0) return null;
    for (let k = nleft; k <= nrt; k++) w[k]! /= a;
    if (h > 0) {
      a = 0;
      for (let k = nleft; k <= nrt; k++) a += w[k]! * x[k]!;
      let b = xs - a;
      let c = 0;
      for (let k = nleft; k <= nrt; k++) c += w[k]! * (x[k]! - a) ** 2;
      if (Math.sqrt(c) > 0.001 * range) {
        b /= c;
        for (let k = nleft; k <= nrt; k++) w[k]! *= b * (x[k]! - a) + 1;
      }
    }
    let out = 0;
    for (let k = nleft; k <= nrt; k++) out += w[k]! * y[k]!;
    return out;
  };
  for (let it = 1; it <= iter + 1; it++) {
    let nleft = 0;
    let nright = ns - 1;
    let last = -1;
    let i = 0;
    for (;;) {
      if (nright < n - 1) {
        const d1 = x[i]! - x[nleft]!;
        const d2 = x[nright + 1]! - x[i]!;
        if (d1 > d2) {
          nleft++;
          nright++;
          continue;
        }
      }
      const v = lowest(x[i]!, nleft, nright, it > 1);
      ys[i] = v ?? y[i]!;
      if (last < i - 1) {
        const denom = x[i]! - x[last]!;
        for (let j = last + 1; j < i; j++) {
          const alpha = (x[j]! - x[last]!) / denom;
          ys[j] = alpha * ys[i]! + (1 - alpha) * ys[last]!;
        }
      }
      last = i;
      const cut = x[last]! + delta;
      for (i = last + 1; i < n; i++) {
        if (x[i]! > cut) break;
        if (x[i] === x[last]) {
          ys[i] = ys[last]!;
          last = i;
        }
      }
      i = Math.max(last + 1, i - 1);
      if (last >= n - 1) break;
    }
    for (let k = 0; k < n; k++) res[k] = y[k]! - ys[k]!;
    if (it > iter) break;
    let sc = 0;
    for (let k = 0; k < n; k++) sc += Math.abs(res[k]!);
    sc /= n;
    const abs = Float64Array.from(res, Math.abs).sort();
    const m1 = Math.floor(n / 2);
    const cmad = n % 2 === 0 ? 3 * (abs[m1 - 1]! + abs[m1]!) : 6 * abs[m1]!;
    if (cmad < 1e-7 * sc) break;
    const c9 = 0.999 * cmad;
    const c1 = 0.001 * cmad;
    for (let k = 0; k < n; k++) {
      const r = Math.abs(res[k]!);
      rw[k] = r <= c1 ? 1 : r <= c9 ? (1 - (r / cmad) ** 2) ** 2 : 0;
    }
  }
  return ys;
}

/** approxfun(x, y, rule = 2, ties = mean) for increasing x (ties averaged). */
export function approxFun(x: Float64Array, y: Float64Array): (v: number) => number {
  const xs: number[] = [];
  const yv: number[] = [];
  for (let i = 0; i < x.length;) {
    let j = i;
    let s = 0;
    while (j < x.length && x[j] === x[i]) s += y[j++]!;
    xs.push(x[i]!);
    yv.push(s / (j - i));
    i = j;
  }
  return (v) => {
    if (v <= xs[0]!) return yv[0]!;
    if (v >= xs[xs.length - 1]!) return yv[yv.length - 1]!;
    let lo = 0;
    let hi = xs.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (xs[mid]! <= v) lo = mid;
      else hi = mid;
    }
    return yv[lo]! + ((yv[hi]! - yv[lo]!) * (v - xs[lo]!)) / (xs[hi]! - xs[lo]!);
  };
}
