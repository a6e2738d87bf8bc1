/**
 * In-place mixed-radix complex FFT (radices 4, 2 and 3: lengths 2^a · 3^b) over separate real /
 * imaginary Float64Arrays, and its d-dimensional form on a row-major n^d grid. Small and
 * self-contained: the t-SNE repulsion (methods/tsne/repulsion.ts) convolves a few grids per
 * iteration and needs nothing more; 3-smooth lengths let its zero-padded grid be 6 · boxes long
 * instead of the next power of two (up to 2× per axis). The inverse is unnormalised (divide by the
 * size yourself).
 */
export class Fft {
  readonly n: number;
  /** Radix of each stage, first stage first. */
  private readonly radices: number[];
  /** cos / sin of 2πt/n, t < n (the stages' twiddles). */
  readonly cos: Float64Array;
  readonly sin: Float64Array;
  private scratchRe = new Float64Array(0);
  private scratchIm = new Float64Array(0);

  /** Whether n is a length this FFT handles: 2^a · 3^b ≥ 2. */
  static isSize(n: number): boolean {
    if (!Number.isInteger(n) || n < 2) return false;
    while (n % 3 === 0) n /= 3;
    return (n & (n - 1)) === 0;
  }

  constructor(n: number) {
    if (!Fft.isSize(n)) throw new Error(`Fft: size ${n} must be 2^a · 3^b ≥ 2`);
    this.n = n;
    const radices: number[] = [];
    let rest = n;
    while (rest % 3 === 0) {
      radices.push(3);
      rest /= 3;
    }
    while (rest % 4 === 0) {
      radices.push(4);
      rest /= 4;
    }
    if (rest === 2) radices.push(2);
    this.radices = radices;
    this.cos = Float64Array.from({ length: n }, (_, t) => Math.cos((2 * Math.PI * t) / n));
    this.sin = Float64Array.from({ length: n }, (_, t) => Math.sin((2 * Math.PI * t) / n));
  }

  /**
   * Transforms `width` vectors of length n at once: element t of vector c is at
   * offset + t·width + c (width 1: one contiguous line). Stockham's self-sorting form (no
   * digit-reversal pass): every stage reads one buffer and writes the other, its butterflies
   * running along contiguous runs of stride · width values with one twiddle — which is what makes
   * the column passes of a grid fast.
   */
  run(re: Float64Array, im: Float64Array, inverse = false, offset = 0, width = 1): void {
    const len = this.n * width;
    if (this.scratchRe.length < len) {
      this.scratchRe = new Float64Array(len);
      this.scratchIm = new Float64Array(len);
    }
    const bufs = [
      { re, im, at: offset },
      { re: this.scratchRe, im: this.scratchIm, at: 0 },
    ];
    let src = 0;
    let sub = this.n; // length of the sub-transforms still to do
    let stride = width; // interleaved values between consecutive elements of one sub-transform
    for (const r of this.radices) {
      const x = bufs[src];
      const y = bufs[1 - src];
      const stage = r === 4 ? radix4 : r === 2 ? radix2 : radix3;
      stage(this, x.re, x.im, x.at, y.re, y.im, y.at, sub, stride, inverse ? 1 : -1);
      src = 1 - src;
      sub /= r;
      stride *= r;
    }
    if (src === 1) {
      re.set(this.scratchRe.subarray(0, len), offset);
      im.set(this.scratchIm.subarray(0, len), offset);
    }
  }
}

type Stage = (
  fft: Fft,
  xr: Float64Array,
  xi: Float64Array,
  xo: number,
  yr: Float64Array,
  yi: Float64Array,
  yo: number,
  sub: number,
  stride: number,
  sign: number,
) => void;

/**
 * One radix-2 Stockham stage (decimation in frequency): for each of the sub / 2 butterflies p,
 * y[2p] = a + b and y[2p + 1] = (a − b)·w^p, w = e^(sign·2πi/sub), over `stride` interleaved values.
 */
const radix2: Stage = (fft, xr, xi, xo, yr, yi, yo, sub, stride, sign) => {
  const m = sub / 2;
  const tw = fft.n / sub;
  for (let p = 0; p < m; p++) {
    const wr = fft.cos[p * tw];
    const wi = sign * fft.sin[p * tw];
    const a = xo + p * stride;
    const b = a + m * stride;
    const o0 = yo + 2 * p * stride;
    const o1 = o0 + stride;
    for (let q = 0; q < stride; q++) {
      const ar = xr[a + q];
      const ai = xi[a + q];
      const br = xr[b + q];
      const bi = xi[b + q];
      yr[o0 + q] = ar + br;
      yi[o0 + q] = ai + bi;
      const dr = ar - br;
      const di = ai - bi;
      yr[o1 + q] = dr * wr - di * wi;
      yi[o1 + q] = dr * wi + di * wr;
    }
  }
};

/** One radix-4 Stockham stage (as radix2, four inputs a quarter of the sub-transform apart). */
const radix4: Stage = (fft, xr, xi, xo, yr, yi, yo, sub, stride, sign) => {
  const m = sub / 4;
  const tw = fft.n / sub;
  const ms = m * stride;
  for (let p = 0; p < m; p++) {
    const t = p * tw;
    const w1r = fft.cos[t];
    const w1i = sign * fft.sin[t];
    const w2r = fft.cos[2 * t];
    const w2i = sign * fft.sin[2 * t];
    const w3r = fft.cos[3 * t];
    const w3i = sign * fft.sin[3 * t];
    const i0 = xo + p * stride;
    const i1 = i0 + ms;
    const i2 = i1 + ms;
    const i3 = i2 + ms;
    const o0 = yo + 4 * p * stride;
    const o1 = o0 + stride;
    const o2 = o1 + stride;
    const o3 = o2 + stride;
    for (let q = 0; q < stride; q++) {
      const ar = xr[i0 + q];
      const ai = xi[i0 + q];
      const br = xr[i1 + q];
      const bi = xi[i1 + q];
      const cr = xr[i2 + q];
      const ci = xi[i2 + q];
      const dr = xr[i3 + q];
      const di = xi[i3 + q];
      const apcr = ar + cr;
      const apci = ai + ci;
      const amcr = ar - cr;
      const amci = ai - ci;
      const bpdr = br + dr;
      const bpdi = bi + di;
      // (b − d) · sign·i
      const jr = -sign * (bi - di);
      const ji = sign * (br - dr);
      yr[o0 + q] = apcr + bpdr;
      yi[o0 + q] = apci + bpdi;
      let ur = amcr + jr;
      let ui = amci + ji;
      yr[o1 + q] = ur * w1r - ui * w1i;
      yi[o1 + q] = ur * w1i + ui * w1r;
      ur = apcr - bpdr;
      ui = apci - bpdi;
      yr[o2 + q] = ur * w2r - ui * w2i;
      yi[o2 + q] = ur * w2i + ui * w2r;
      ur = amcr - jr;
      ui = amci - ji;
      yr[o3 + q] = ur * w3r - ui * w3i;
      yi[o3 + q] = ur * w3i + ui * w3r;
    }
  }
};

/** One radix-3 Stockham stage (as radix2, three inputs a third of the sub-transform apart). */
const radix3: Stage = (fft, xr, xi, xo, yr, yi, yo, sub, stride, sign) => {
  const m = sub / 3;
  const tw = fft.n / sub;
  const ms = m * stride;
  const s3 = sign * Math.sqrt(3) * 0.5; // Im e^(sign·2πi/3)
  for (let p = 0; p < m; p++) {
    const t = p * tw;
    const w1r = fft.cos[t];
    const w1i = sign * fft.sin[t];
    const w2r = fft.cos[2 * t];
    const w2i = sign * fft.sin[2 * t];
    const i0 = xo + p * stride;
    const i1 = i0 + ms;
    const i2 = i1 + ms;
    const o0 = yo + 3 * p * stride;
    const o1 = o0 + stride;
    const o2 = o1 + stride;
    for (let q = 0; q < stride; q++) {
      const ar = xr[i0 + q];
      const ai = xi[i0 + q];
      const br = xr[i1 + q];
      const bi = xi[i1 + q];
      const cr = xr[i2 + q];
      const ci = xi[i2 + q];
      const tr = br + cr;
      const ti = bi + ci;
      const hr = ar - 0.5 * tr;
      const hi = ai - 0.5 * ti;
      // (b − c) · i · s3
      const dr = -s3 * (bi - ci);
      const di = s3 * (br - cr);
      yr[o0 + q] = ar + tr;
      yi[o0 + q] = ai + ti;
      let ur = hr + dr;
      let ui = hi + di;
      yr[o1 + q] = ur * w1r - ui * w1i;
      yi[o1 + q] = ur * w1i + ui * w1r;
      ur = hr - dr;
      ui = hi - di;
      yr[o2 + q] = ur * w2r - ui * w2i;
      yi[o2 + q] = ur * w2i + ui * w2r;
    }
  }
};

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
