import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Random } from '../methods/random';

/**
 * The stochastic gradient descent of the UMAP layout (stats/umap-layout), on its own so that a
 * worker thread can run it while the main thread goes on with the pipeline. Node loads this
 * file directly as a worker (type annotations stripped): erasable TypeScript only, no static
 * import of ours (the seeded generator, methods/random.ts, is loaded by its file URL in the worker).
 */
export interface SgdInput {
  nNodes: number;
  dims: number;
  epochs: number;
  /** The a, b of 1/(1 + a·d^(2b)) (umap-layout fitAB). */
  a: number;
  b: number;
  seed: number;
  /** Directed edges (both directions of each symmetric edge) as COO. */
  rows: Int32Array;
  cols: Int32Array;
  weights: Float32Array;
}

/** What the layout draws from methods/random's seeded generator. */
export type LayoutRandom = Pick<Random, 'uniform' | 'nextUint32'>;

/** Messages a layout worker posts: epochs done so far, then the coordinates. */
export type SgdMessage = { type: 'progress'; epochs: number } | { type: 'done'; values: Float32Array };

/**
 * Random initialisation in [−10, 10], then SGD as umap-learn's `optimize_layout_euclidean`: edge e
 * is sampled every epochs_per_sample = max weight / weight epochs, with 5 negative samples per
 * positive one (epochs_per_negative_sample = epochs_per_sample / 5; cells drawn by umap-learn's
 * tau-rand generator, seeded from `rng`), learning rate 1 decaying linearly, gradients clipped at 4.
 * `onEpochs(done)` is called every `every` epochs (and after the last).
 *
 * Speed (issue 14): one table-based power per update (`powTable`, d^(2b) shared by the attractive
 * coefficient as d^(2b)/d²), one scalar kernel without inner loops for 2D and 3D (float32
 * coordinates, float64 arithmetic), and the negative samples of one
 * positive update computed from the head's position after that update and applied together (their
 * clipped steps summed) instead of one after the other — they no longer wait on each other.
 */
export function optimizeLayout(
  s: SgdInput,
  rng: LayoutRandom,
  onEpochs?: (done: number) => void,
  every = 10,
): Float32Array {
  const { nNodes: n, dims, epochs, a, b, rows, cols, weights } = s;
  if (dims !== 2 && dims !== 3) throw new Error(`UMAP layout: dims must be 2 or 3 (got ${dims})`);
  // float32 coordinates, row-major n × dims (the negative samples read them at random: at 100k
  // cells the array must stay small for the caches); float64 arithmetic
  const y = new Float32Array(n * dims);
  for (let i = 0; i < y.length; i++) y[i] = 20 * rng.uniform() - 10;
  const three = dims === 3;
  // tau-rand state (umap-learn tau_rand_int); the lowest bits set keep each component non-degenerate
  let r0 = rng.nextUint32() | 2;
  let r1 = rng.nextUint32() | 8;
  let r2 = rng.nextUint32() | 16;
  const pow = powTable(b);
  let wMax = 0;
  for (const w of weights) if (w > wMax) wMax = w;
  const nEdges = rows.length;
  // epochs per positive sample (wMax / w) and per negative sample (that / 5) are recomputed where
  // used (the same float64 operations, so the same values): only the two schedules are stored,
  // 16 B per edge instead of 32 (~100 MB less per layout worker at 100k cells, issue 14)
  const perSample = (e: number): number => {
    const w = weights[e];
    return w > 0 ? wMax / w : Infinity;
  };
  const negRate = 5;
  const nextSample = new Float64Array(nEdges);
  const nextNeg = new Float64Array(nEdges);
  for (let e = 0; e < nEdges; e++) {
    nextSample[e] = perSample(e);
    nextNeg[e] = nextSample[e] / negRate;
  }
  const draw = n / 4294967296;
  const m2ab = -2 * a * b;
  const twoB = 2 * b;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const alpha = 1 - epoch / epochs;
    const due = epoch + 1;
    for (let e = 0; e < nEdges; e++) {
      if (nextSample[e] > due) continue;
      const i = rows[e] * dims;
      const j = cols[e] * dims;
      let xi = y[i];
      let yi = y[i + 1];
      let zi = three ? y[i + 2] : 0;
      const dx = xi - y[j];
      const dy = yi - y[j + 1];
      const dz = three ? zi - y[j + 2] : 0;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > 0) {
        const p = pow(d2); // d2^b; d2^(b−1) = p / d2
        const coef = (m2ab * p) / (d2 * (a * p + 1));
        const gx = clip(coef * dx) * alpha;
        const gy = clip(coef * dy) * alpha;
        const gz = clip(coef * dz) * alpha;
        xi += gx;
        yi += gy;
        zi += gz;
        y[j] -= gx;
        y[j + 1] -= gy;
        if (three) y[j + 2] -= gz;
      }
      const ps = perSample(e);
      const pn = ps / negRate;
      nextSample[e] += ps;
      const nNeg = Math.floor((due - nextNeg[e]) / pn) + 1;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (let q = 0; q < nNeg; q++) {
        r0 = (((r0 & 4294967294) << 12) ^ (((r0 << 13) ^ r0) >>> 19)) | 0;
        r1 = (((r1 & 4294967288) << 4) ^ (((r1 << 2) ^ r1) >>> 25)) | 0;
        r2 = (((r2 & 4294967280) << 17) ^ (((r2 << 3) ^ r2) >>> 11)) | 0;
        const k = ((((r0 ^ r1 ^ r2) >>> 0) * draw) | 0) * dims;
        if (k === i) continue;
        const ex = xi - y[k];
        const ey = yi - y[k + 1];
        const ez = three ? zi - y[k + 2] : 0;
        const dn = ex * ex + ey * ey + ez * ez;
        if (dn > 0) {
          const coef = twoB / ((0.001 + dn) * (a * pow(dn) + 1));
          sx += clip(coef * ex);
          sy += clip(coef * ey);
          sz += clip(coef * ez);
        } else {
          sx += 4;
          sy += 4;
          sz += 4;
        }
      }
      y[i] = xi + sx * alpha;
      y[i + 1] = yi + sy * alpha;
      if (three) y[i + 2] = zi + sz * alpha;
      nextNeg[e] += nNeg * pn;
    }
    if (onEpochs && ((epoch + 1) % every === 0 || epoch + 1 === epochs)) onEpochs(epoch + 1);
  }
  return y;
}

function clip(v: number): number {
  return v > 4 ? 4 : v < -4 ? -4 : v;
}

/**
 * d ↦ d^b for the gradient coefficients, ~3e-7 relative error: d = m·2^k with k from Math.clz32,
 * m^b from a 256-interval table (linear interpolation) and 2^(k·b) from a second table; outside
 * [2^-10, 2^22) Math.pow. About a third of Math.pow's cost in V8.
 */
export function powTable(b: number): (d: number) => number {
  const steps = 256;
  const mant = Float64Array.from({ length: steps + 2 }, (_, i) => Math.pow(1 + i / steps, b));
  const scale = Float64Array.from({ length: 32 }, (_, i) => Math.pow(2, (i - 10) * b));
  const inv = Float64Array.from({ length: 32 }, (_, i) => Math.pow(2, 10 - i));
  return (d: number): number => {
    const s = d * 1024;
    if (!(s >= 1 && s < 4294967296)) return Math.pow(d, b);
    const k = 31 - Math.clz32(s); // floor(log2 d) + 10
    const x = (d * inv[k] - 1) * steps;
    const i = x | 0;
    const lo = mant[i];
    return (lo + (x - i) * (mant[i + 1] - lo)) * scale[k];
  };
}

// Worker entry: umap-layout starts this file with { task: 'umap-sgd', input } (arrays transferred)
// and receives progress messages, then the coordinates (transferred back).
if (!isMainThread && workerData?.task === 'umap-sgd') {
  const randomUrl = new URL('../methods/random.ts', import.meta.url).href;
  const { Random: Seeded } = (await import(randomUrl)) as { Random: typeof Random };
  const input = workerData.input as SgdInput;
  const post = (m: SgdMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);
  const values = optimizeLayout(input, new Seeded(input.seed), (epochs) =>
    post({ type: 'progress', epochs }),
  );
  post({ type: 'done', values }, [values.buffer as ArrayBuffer]);
}
