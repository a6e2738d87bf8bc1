/**
 * The 2D interpolation of methods/tsne/repulsion (the common case), with the p × p stencil as two
 * nested loops and only the 2p per-axis Lagrange weights stored per point (their products are
 * formed again in the gather): charges 1, y₁ on grid a (real, imaginary), y₂, |y|² on grid b.
 */
export interface Grid {
  re: Float64Array;
  im: Float64Array;
}

/** Node positions within a box (box units) and the Lagrange denominators, for p nodes. */
export function lagrangeNodes(p: number): { nodes: Float64Array; denom: Float64Array } {
  const nodes = Float64Array.from({ length: p }, (_, t) => (t + 0.5) / p);
  const denom = Float64Array.from(nodes, (xt, t) => {
    let d = 1;
    for (let s = 0; s < p; s++) if (s !== t) d *= xt - nodes[s];
    return d;
  });
  return { nodes, denom };
}

/**
 * The box of grid coordinate u (in box widths, clamped to the grid) and the Lagrange weights of
 * its p nodes, written to out[at …].
 */
export function axisWeights(
  u: number,
  nBoxes: number,
  nodes: Float64Array,
  denom: Float64Array,
  out: Float64Array,
  at: number,
): number {
  const p = nodes.length;
  const box = Math.min(nBoxes - 1, Math.max(0, Math.floor(u)));
  const local = u - box;
  for (let t = 0; t < p; t++) {
    let num = 1;
    for (let q = 0; q < p; q++) if (q !== t) num *= local - nodes[q];
    out[at + t] = num / denom[t];
  }
  return box;
}

/**
 * Spreads the points' charges onto the grids (zeroed first) and keeps each point's first node
 * (`base`) and per-axis weights (`axisW`, n × 2p) for the gather.
 */
export function spread2d(
  y: Float64Array,
  lo: number,
  h: number,
  nBoxes: number,
  size: number,
  p: number,
  base: Int32Array,
  axisW: Float64Array,
  a: Grid,
  b: Grid,
): void {
  const n = base.length;
  const { nodes, denom } = lagrangeNodes(p);
  a.re.fill(0);
  a.im.fill(0);
  b.re.fill(0);
  b.im.fill(0);
  for (let i = 0; i < n; i++) {
    const y0 = y[2 * i];
    const y1 = y[2 * i + 1];
    const norm2 = y0 * y0 + y1 * y1;
    const w = i * 2 * p;
    let b0 = 0;
    for (let ax = 0; ax < 2; ax++) {
      const box = axisWeights(((ax === 0 ? y0 : y1) - lo) / h, nBoxes, nodes, denom, axisW, w + ax * p);
      b0 = b0 * size + box * p;
    }
    base[i] = b0;
    for (let s = 0; s < p; s++) {
      const ws = axisW[w + s];
      const row = b0 + s * size;
      for (let t = 0; t < p; t++) {
        const wt = ws * axisW[w + p + t];
        const at = row + t;
        a.re[at] += wt;
        a.im[at] += wt * y0;
        b.re[at] += wt * y1;
        b.im[at] += wt * norm2;
      }
    }
  }
}

/**
 * Interpolates the node potentials back to the points: Σ_j (yᵢ − yⱼ)/(1 + d²)² into `out`;
 * returns Z = Σ_{i≠j} 1/(1 + d²) (as FftRepulsion.compute).
 */
export function gather2d(
  y: Float64Array,
  size: number,
  p: number,
  base: Int32Array,
  axisW: Float64Array,
  a: Grid,
  b: Grid,
  out: Float64Array,
): number {
  const n = base.length;
  let z = 0;
  for (let i = 0; i < n; i++) {
    let p0 = 0;
    let p1 = 0;
    let p2 = 0;
    let p3 = 0;
    const w = i * 2 * p;
    for (let s = 0; s < p; s++) {
      const ws = axisW[w + s];
      const row = base[i] + s * size;
      for (let t = 0; t < p; t++) {
        const wt = ws * axisW[w + p + t];
        const at = row + t;
        p0 += wt * a.re[at];
        p1 += wt * a.im[at];
        p2 += wt * b.re[at];
        p3 += wt * b.im[at];
      }
    }
    const y0 = y[2 * i];
    const y1 = y[2 * i + 1];
    out[2 * i] = y0 * p0 - p1;
    out[2 * i + 1] = y1 * p0 - p2;
    // Σ_j 1/(1 + d²) = Σ_j (1 + |yᵢ|² − 2 yᵢ·yⱼ + |yⱼ|²) K²
    z += (1 + y0 * y0 + y1 * y1) * p0 - 2 * (y0 * p1 + y1 * p2) + p3;
  }
  return z - n; // without the i = j terms (each 1)
}
