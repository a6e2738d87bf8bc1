/**
 * In-place radix-2 complex FFT over separate real / imaginary Float64Arrays, and its
 * d-dimensional form on a row-major n^d grid. Small and self-contained: the t-SNE repulsion
 * (methods/tsne/repulsion.ts) convolves a few grids per iteration and needs nothing more. The
 * inverse is unnormalised (divide by the size yourself).
 */
export class Fft {
  readonly n: number;
  private readonly rev: Uint32Array;
  /** Twiddles e^(−2πik/n), k < n/2. */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;

  constructor(n: number) {
    if (!(n >= 2) || (n & (n - 1)) !== 0) throw new Error(`Fft: size ${n} must be a power of two ≥ 2`);
    this.n = n;
    const bits = Math.round(Math.log2(n));
    this.rev = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    this.cos = new Float64Array(n / 2);
    this.sin = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / n);
      this.sin[k] = Math.sin((2 * Math.PI * k) / n);
    }
  }

  /**
   * Transforms n vectors of `width` contiguous values at once: element t of vector c is at
   * offset + t·width + c (width 1: one contiguous line). Every butterfly then runs along a
   * contiguous row with one twiddle, which is what makes the column passes of a grid fast.
   */
  run(re: Float64Array, im: Float64Array, inverse = false, offset = 0, width = 1): void {
    const { n, rev, cos, sin } = this;
    const sign = inverse ? 1 : -1;
    for (let i = 0; i < n; i++) {
      const j = rev[i];
      if (j <= i) continue;
      const a = offset + i * width;
      const b = offset + j * width;
      for (let c = 0; c < width; c++) {
        let t = re[a + c];
        re[a + c] = re[b + c];
        re[b + c] = t;
        t = im[a + c];
        im[a + c] = im[b + c];
        im[b + c] = t;
      }
    }
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const step = n / size;
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step];
        const wi = sign * sin[k * step];
        for (let start = 0; start < n; start += size) {
          const a = offset + (start + k) * width;
          const b = a + half * width;
          for (let c = 0; c < width; c++) {
            const br = re[b + c];
            const bi = im[b + c];
            const xr = br * wr - bi * wi;
            const xi = br * wi + bi * wr;
            const ar = re[a + c];
            const ai = im[a + c];
            re[b + c] = ar - xr;
            im[b + c] = ai - xi;
            re[a + c] = ar + xr;
            im[a + c] = ai + xi;
          }
        }
      }
    }
  }
}

/**
 * d-dimensional FFT of a row-major n^d complex grid, in place (1-D transforms along every axis).
 * `support` < n says that only indices < support along every axis matter: nonzero on input of a
 * forward transform, wanted on output of an inverse one (a zero-padded convolution); lines of the
 * last axis outside it are skipped.
 */
export function fftNd(
  fft: Fft,
  dims: number,
  re: Float64Array,
  im: Float64Array,
  inverse = false,
  support = fft.n,
): void {
  const n = fft.n;
  const total = n ** dims;
  const lastAxis = () => {
    for (let start = 0; start < total; start += n) {
      if (support < n && !inSupport(start / n, n, dims - 1, support)) continue;
      fft.run(re, im, inverse, start, 1);
    }
  };
  // forward: the last axis first (zero lines skipped); inverse: last (unwanted lines skipped)
  if (!inverse) lastAxis();
  for (let axis = dims - 2; axis >= 0; axis--) {
    const width = n ** (dims - 1 - axis);
    for (let outer = 0; outer < total; outer += width * n) fft.run(re, im, inverse, outer, width);
  }
  if (inverse) lastAxis();
}

/** Whether every one of the `count` base-n digits of `line` is below `support`. */
function inSupport(line: number, n: number, count: number, support: number): boolean {
  for (let a = 0; a < count; a++) {
    if (line % n >= support) return false;
    line = Math.floor(line / n);
  }
  return true;
}
