import { Fft, fftNd } from './fft';
import { axisWeights, gather2d, lagrangeNodes, spread2d } from './interp2d';

/** Interpolation settings of the repulsive forces (openTSNE / FIt-SNE names and defaults). */
export interface RepulsionOptions {
  /** Lagrange interpolation nodes per box and axis (openTSNE n_interpolation_points: 3). */
  nInterpolationPoints: number;
  /**
   * At least this many boxes per axis (openTSNE min_num_intervals: 50; here 42, so that the
   * zero-padded grid, 2 · 3 · 42 = 252 nodes, fits the FFT length 256).
   */
  minNumIntervals: number;
  /** Boxes per unit of embedding range (openTSNE ints_in_interval: 1). */
  intsInInterval: number;
  /**
   * Largest FFT length per axis. The grid has nBoxes · nInterpolationPoints nodes per axis,
   * zero-padded to twice that for the circular convolution, rounded up to a fast FFT length
   * (fftSize); beyond this length the boxes widen instead (coarser, cheaper interpolation).
   */
  maxFftSize: number;
}

export const DEFAULT_REPULSION: RepulsionOptions = {
  nInterpolationPoints: 3,
  minNumIntervals: 42,
  intsInInterval: 1,
  maxFftSize: 576,
};

/**
 * Defaults by embedding dimension: openTSNE's in 2D (FFT length ≤ 576 = 2⁶ · 3²: up to 96 boxes
 * per axis — 486, 81 boxes, lost 0.007 trustworthiness at 100k cells);
 * in 3D (which openTSNE and FIt-SNE do not interpolate) a 64³ grid, 10 boxes per axis — the same
 * number of grid cells as 512², with wider boxes and so a coarser repulsion.
 */
export function defaultRepulsion(dims: number): RepulsionOptions {
  return dims === 3 ? { ...DEFAULT_REPULSION, minNumIntervals: 10, maxFftSize: 64 } : DEFAULT_REPULSION;
}

/**
 * The repulsion of all pairs, exactly, O(n²): same outputs as FftRepulsion.compute and
 * BarnesHutRepulsion.compute, the reference both are tested against (the layouts use neither
 * this: at 2,700 points all pairs cost ~17 ms per iteration, the tree ~9 ms).
 */
export function exactRepulsion(y: Float64Array, dims: number, out: Float64Array): number {
  const n = y.length / dims;
  out.fill(0);
  if (dims === 2) return exact2d(y, n, out);
  if (dims === 3) return exact3d(y, n, out);
  let z = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let d2 = 0;
      for (let a = 0; a < dims; a++) {
        const diff = y[i * dims + a] - y[j * dims + a];
        d2 += diff * diff;
      }
      const q = 1 / (1 + d2);
      z += 2 * q;
      const q2 = q * q;
      for (let a = 0; a < dims; a++) {
        const f = q2 * (y[i * dims + a] - y[j * dims + a]);
        out[i * dims + a] += f;
        out[j * dims + a] -= f;
      }
    }
  }
  return z;
}

/**
 * The FFT length used for a padded grid of at least v nodes per axis: the smallest 2^a · 3^b ≥ v
 * with b ≤ 3 (more radix-3 stages cost more than the next length with fewer: 486 = 2 · 3⁵ is
 * slower than 512), e.g. 288, 384, 432 where a power of two would take 512.
 */
export function fftSize(v: number): number {
  let best = Infinity;
  for (let p3 = 1; p3 <= 27; p3 *= 3) {
    let s = p3;
    while (s < v || s < 2) s *= 2;
    if (s < best) best = s;
  }
  return best;
}

/**
 * The repulsive part of the t-SNE gradient by FFT-accelerated interpolation (Linderman et al.
 * 2019, "FIt-SNE"; openTSNE's `negative_gradient_method="fft"`), in 2 or 3 dimensions. The
 * embedding's bounding cube is split into equal boxes with `nInterpolationPoints` equispaced
 * Lagrange nodes per axis; each point spreads its charges [1, y, |y|²] onto the nodes of its box,
 * the node potentials under the kernel 1/(1 + d²)² come from one circular convolution per charge
 * pair (FFT of a zero-padded grid, two real charges packed in one complex grid), and are
 * interpolated back. From those: Σ_j (yᵢ − yⱼ)/(1 + d²)² and Z = Σ_{i≠j} 1/(1 + d²).
 */
export class FftRepulsion {
  private fft: Fft | undefined;
  private weights: Float64Array;
  private base: Int32Array;
  private readonly nStencil: number;
  private grids: { re: Float64Array; im: Float64Array }[] = [];
  private kernel: { re: Float64Array; im: Float64Array } | undefined;
  /** The current grid: lower corner, box width, boxes per axis, FFT length. */
  private geom: { lo: number; h: number; nBoxes: number; size: number } | undefined;

  constructor(
    private readonly n: number,
    private readonly dims: number,
    private readonly opts: RepulsionOptions = DEFAULT_REPULSION,
  ) {
    if (dims !== 2 && dims !== 3) throw new Error(`FftRepulsion: dims must be 2 or 3, got ${dims}`);
    this.nStencil = opts.nInterpolationPoints ** dims;
    // 2D: the 2p per-axis weights of each point (methods/tsne/interp2d); 3D: the p³ products
    this.weights = new Float64Array(n * (dims === 2 ? 2 * opts.nInterpolationPoints : this.nStencil));
    this.base = new Int32Array(n);
  }

  /**
   * Writes Σ_j (yᵢ − yⱼ)/(1 + |yᵢ − yⱼ|²)² into `out` (row-major n × dims) and returns
   * Z = Σ_{i≠j} 1/(1 + |yᵢ − yⱼ|²), both approximated by interpolation.
   */
  compute(y: Float64Array, out: Float64Array): number {
    const { dims, opts } = this;
    const p = opts.nInterpolationPoints;
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of y) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const range = Math.max(hi - lo, 1e-6);
    // The grid (and the kernel's transform) is kept while it covers the points and is at most
    // 1/0.8 of their range; a new one gets a 5 % margin on each side, so that the expanding
    // embedding needs a new kernel transform only every few iterations.
    let geom = this.geom;
    const span = geom && geom.h * geom.nBoxes;
    if (!geom || !span || lo < geom.lo || hi > geom.lo + span || range < 0.8 * span) {
      const padded = range * 1.1;
      let nBoxes = Math.max(opts.minNumIntervals, Math.ceil(padded * opts.intsInInterval));
      const size = Math.min(opts.maxFftSize, fftSize(2 * nBoxes * p));
      nBoxes = Math.floor(size / (2 * p)); // use the whole padded length
      geom = { lo: lo - 0.05 * range, h: padded / nBoxes, nBoxes, size };
      this.geom = geom;
      this.prepare(size);
      this.kernelTransform(size, nBoxes * p, geom.h / p);
    }
    const { size, nBoxes } = geom;
    const g = nBoxes * p; // nodes per axis
    const [ga, gb] = this.grids;
    if (dims === 2) spread2d(y, geom.lo, geom.h, nBoxes, size, p, this.base, this.weights, ga, gb);
    else this.spread(y, geom.lo, geom.h, nBoxes, size);
    const khat = this.kernel!.re;
    const total = size ** dims;
    const scale = 1 / total;
    for (const grid of this.grids) {
      fftNd(this.fft!, dims, grid.re, grid.im, false, g);
      for (let t = 0; t < total; t++) {
        grid.re[t] *= khat[t] * scale;
        grid.im[t] *= khat[t] * scale;
      }
      fftNd(this.fft!, dims, grid.re, grid.im, true, g);
    }
    return dims === 2 ? gather2d(y, size, p, this.base, this.weights, ga, gb, out) : this.gather(y, out);
  }

  private prepare(size: number): void {
    if (this.fft?.n === size) return;
    this.fft = new Fft(size);
    const total = size ** this.dims;
    const nGrids = Math.ceil((this.dims + 2) / 2);
    this.grids = Array.from({ length: nGrids }, () => ({
      re: new Float64Array(total),
      im: new Float64Array(total),
    }));
    this.kernel = { re: new Float64Array(total), im: new Float64Array(total) };
  }

  /** Lagrange weights of each point on its box's nodes, and the charges spread onto the grids. */
  private spread(y: Float64Array, lo: number, h: number, nBoxes: number, size: number): void {
    const { n, dims, nStencil, weights, base } = this;
    const p = this.opts.nInterpolationPoints;
    // node positions within a box (in box units) and the Lagrange denominators
    const { nodes, denom } = lagrangeNodes(p);
    const axisW = new Float64Array(dims * p);
    const offsets = stencilOffsets(dims, p, size);
    for (const grid of this.grids) {
      grid.re.fill(0);
      grid.im.fill(0);
    }
    // node of each stencil entry along each axis (row-major, axis 0 slowest)
    const nodeOf = new Int32Array(nStencil * dims);
    for (let st = 0; st < nStencil; st++)
      for (let a = dims - 1, rem = st; a >= 0; a--, rem = Math.floor(rem / p))
        nodeOf[st * dims + a] = a * p + (rem % p);
    const [g0, g1, g2] = this.grids;
    for (let i = 0; i < n; i++) {
      let b0 = 0;
      let norm2 = 0;
      for (let a = 0; a < dims; a++) {
        const v = y[i * dims + a];
        norm2 += v * v;
        const box = axisWeights((v - lo) / h, nBoxes, nodes, denom, axisW, a * p);
        b0 = b0 * size + box * p;
      }
      base[i] = b0;
      // charges 1, y_1 … y_dims, |y|², two per complex grid
      const y0 = y[i * dims];
      const y1 = y[i * dims + 1];
      const c3 = dims === 3 ? y[i * dims + 2] : norm2;
      const wOff = i * nStencil;
      for (let st = 0; st < nStencil; st++) {
        let w = axisW[nodeOf[st * dims]] * axisW[nodeOf[st * dims + 1]];
        if (dims === 3) w *= axisW[nodeOf[st * dims + 2]];
        weights[wOff + st] = w;
        const at = b0 + offsets[st];
        g0.re[at] += w;
        g0.im[at] += w * y0;
        g1.re[at] += w * y1;
        g1.im[at] += w * c3;
        if (g2) g2.re[at] += w * norm2;
      }
    }
    this.stencil = offsets;
  }

  private stencil: Int32Array = new Int32Array(0);

  /** FFT of the kernel 1/(1 + d²)² on the circulant grid (real and even: its transform is real). */
  private kernelTransform(size: number, g: number, spacing: number): void {
    const { dims } = this;
    const k = this.kernel!;
    k.im.fill(0);
    // squared offset (in grid steps) of each circulant index along one axis; NaN = no node pair
    const delta2 = Float64Array.from({ length: size }, (_, m) =>
      m < g ? m * m : m > size - g ? (size - m) ** 2 : NaN,
    );
    const s2 = spacing * spacing;
    const kern = (d2: number) => {
      if (Number.isNaN(d2)) return 0;
      const q = 1 / (1 + s2 * d2);
      return q * q;
    };
    if (dims === 2) {
      for (let a = 0; a < size; a++)
        for (let b = 0; b < size; b++) k.re[a * size + b] = kern(delta2[a] + delta2[b]);
    } else {
      for (let a = 0; a < size; a++)
        for (let b = 0; b < size; b++)
          for (let c = 0; c < size; c++)
            k.re[(a * size + b) * size + c] = kern(delta2[a] + delta2[b] + delta2[c]);
    }
    fftNd(this.fft!, dims, k.re, k.im);
  }

  /** Interpolates the node potentials back to the points; forces into `out`, returns Z. */
  private gather(y: Float64Array, out: Float64Array): number {
    const { n, dims, nStencil, weights, base, stencil } = this;
    const phi = new Float64Array(6);
    const [g0, g1, g2] = this.grids;
    let z = 0;
    for (let i = 0; i < n; i++) {
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      let p3 = 0;
      let p4 = 0;
      const wOff = i * nStencil;
      const b = base[i];
      for (let st = 0; st < nStencil; st++) {
        const w = weights[wOff + st];
        const at = b + stencil[st];
        p0 += w * g0.re[at];
        p1 += w * g0.im[at];
        p2 += w * g1.re[at];
        p3 += w * g1.im[at];
        if (g2) p4 += w * g2.re[at];
      }
      phi[0] = p0;
      phi[1] = p1;
      phi[2] = p2;
      phi[3] = p3;
      phi[4] = p4;
      // Σ_j K² = φ0, Σ_j K² y_j = φ_1…dims, Σ_j K² |y_j|² = φ_(dims+1)
      let dot = 0;
      let norm2 = 0;
      for (let a = 0; a < dims; a++) {
        const v = y[i * dims + a];
        dot += v * phi[1 + a];
        norm2 += v * v;
        out[i * dims + a] = v * phi[0] - phi[1 + a];
      }
      // Σ_j 1/(1 + d²) = Σ_j (1 + |yᵢ|² − 2 yᵢ·yⱼ + |yⱼ|²) K²
      z += (1 + norm2) * phi[0] - 2 * dot + phi[dims + 1];
    }
    return z - n; // without the i = j terms (each 1)
  }
}

/** Flat grid offsets of the p^dims nodes of a box relative to its first node (row-major, axis 0 slowest). */
function stencilOffsets(dims: number, p: number, size: number): Int32Array {
  const out = new Int32Array(p ** dims);
  for (let s = 0; s < out.length; s++) {
    let rem = s;
    let off = 0;
    let mult = 1;
    for (let a = dims - 1; a >= 0; a--) {
      off += (rem % p) * mult;
      rem = (rem / p) | 0;
      mult *= size;
    }
    out[s] = off;
  }
  return out;
}

/** exactRepulsion for 2D (the common case), with the coordinates in locals. */
function exact2d(y: Float64Array, n: number, out: Float64Array): number {
  let z = 0;
  for (let i = 0; i < n; i++) {
    const xi = y[2 * i];
    const yi = y[2 * i + 1];
    let fx = 0;
    let fy = 0;
    for (let j = i + 1; j < n; j++) {
      const dx = xi - y[2 * j];
      const dy = yi - y[2 * j + 1];
      const q = 1 / (1 + dx * dx + dy * dy);
      z += q;
      const q2 = q * q;
      fx += q2 * dx;
      fy += q2 * dy;
      out[2 * j] -= q2 * dx;
      out[2 * j + 1] -= q2 * dy;
    }
    out[2 * i] += fx;
    out[2 * i + 1] += fy;
  }
  return 2 * z;
}

/** exactRepulsion for 3D, with the coordinates in locals. */
function exact3d(y: Float64Array, n: number, out: Float64Array): number {
  let z = 0;
  for (let i = 0; i < n; i++) {
    const xi = y[3 * i];
    const yi = y[3 * i + 1];
    const zi = y[3 * i + 2];
    let fx = 0;
    let fy = 0;
    let fz = 0;
    for (let j = i + 1; j < n; j++) {
      const dx = xi - y[3 * j];
      const dy = yi - y[3 * j + 1];
      const dz = zi - y[3 * j + 2];
      const q = 1 / (1 + dx * dx + dy * dy + dz * dz);
      z += q;
      const q2 = q * q;
      fx += q2 * dx;
      fy += q2 * dy;
      fz += q2 * dz;
      out[3 * j] -= q2 * dx;
      out[3 * j + 1] -= q2 * dy;
      out[3 * j + 2] -= q2 * dz;
    }
    out[3 * i] += fx;
    out[3 * i + 1] += fy;
    out[3 * i + 2] += fz;
  }
  return 2 * z;
}
