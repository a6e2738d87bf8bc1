import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Random } from '../methods/random';

/**
 * The stochastic gradient descent of the UMAP layout (stats/umap-layout), on its own so that a
 * worker thread can run it while the main thread runs the 2D UMAP in scran.js. Node loads this
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
 * Random initialisation in [−10, 10], then SGD as umap-learn: each edge sampled in proportion to
 * its weight, 5 negative samples per positive one, learning rate 1 decaying linearly, gradients
 * clipped at 4. `onEpochs(done)` is called every `every` epochs (and after the last).
 */
export function optimizeLayout(
  s: SgdInput,
  rng: LayoutRandom,
  onEpochs?: (done: number) => void,
  every = 10,
): Float32Array {
  const { nNodes: n, dims, epochs, a, b, rows, cols, weights } = s;
  const y = new Float32Array(n * dims);
  for (let i = 0; i < y.length; i++) y[i] = 20 * rng.uniform() - 10;
  let wMax = 0;
  for (const w of weights) if (w > wMax) wMax = w;
  const nEdges = rows.length;
  const perSample = Float64Array.from(weights, (w) => (w > 0 ? wMax / w : Infinity));
  const nextSample = perSample.slice();
  const negRate = 5;
  const perNeg = Float64Array.from(perSample, (e) => e / negRate);
  const nextNeg = perNeg.slice();
  const clip = (v: number) => (v > 4 ? 4 : v < -4 ? -4 : v);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const alpha = 1 - epoch / epochs;
    for (let e = 0; e < nEdges; e++) {
      if (nextSample[e] > epoch + 1) continue;
      const i = rows[e] * dims;
      const j = cols[e] * dims;
      let d2 = 0;
      for (let t = 0; t < dims; t++) {
        const diff = y[i + t] - y[j + t];
        d2 += diff * diff;
      }
      if (d2 > 0) {
        const pb1 = Math.pow(d2, b - 1); // d2^b = d2 · d2^(b−1): one pow per edge
        const coef = (-2 * a * b * pb1) / (a * pb1 * d2 + 1);
        for (let t = 0; t < dims; t++) {
          const grad = clip(coef * (y[i + t] - y[j + t])) * alpha;
          y[i + t] += grad;
          y[j + t] -= grad;
        }
      }
      nextSample[e] += perSample[e];
      const nNeg = Math.floor((epoch + 1 - nextNeg[e]) / perNeg[e]) + 1;
      for (let q = 0; q < nNeg; q++) {
        // one 32-bit draw per negative sample (Random.int draws 53 bits: twice the work)
        const kIdx = Math.floor(rng.nextUint32() * (n / 4294967296)) * dims;
        if (kIdx === i) continue;
        let dn = 0;
        for (let t = 0; t < dims; t++) {
          const diff = y[i + t] - y[kIdx + t];
          dn += diff * diff;
        }
        const coef = dn > 0 ? (2 * b) / ((0.001 + dn) * (a * Math.pow(dn, b) + 1)) : 0;
        for (let t = 0; t < dims; t++)
          y[i + t] += (coef > 0 ? clip(coef * (y[i + t] - y[kIdx + t])) : 4) * alpha;
      }
      nextNeg[e] += nNeg * perNeg[e];
    }
    if (onEpochs && ((epoch + 1) % every === 0 || epoch + 1 === epochs)) onEpochs(epoch + 1);
  }
  return y;
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
