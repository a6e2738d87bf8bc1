import { Random } from '../random';
import type { TsneAffinities } from './affinities';
import { affinityRows, type AffinityRows, permuteRows, reorderRows, spatialOrder } from './order';
import { BarnesHutRepulsion } from './barnes-hut';
import { DEFAULT_REPULSION, defaultRepulsion, FftRepulsion, type RepulsionOptions } from './repulsion';

/** t-SNE optimisation schedule (openTSNE defaults). */
export interface TsneOptions {
  dims: 2 | 3;
  /** Early exaggeration phase: iterations, factor, momentum (openTSNE: 250, 12, 0.5). */
  earlyExaggerationIter: number;
  earlyExaggeration: number;
  initialMomentum: number;
  /** Main phase: iterations and momentum (openTSNE: 500, 0.8). */
  nIter: number;
  finalMomentum: number;
  /** Learning rate; 'auto' = max(200, n / 12) (Belkina et al. 2019, openTSNE). */
  learningRate: number | 'auto';
  /** Interpolation of the repulsion (default: defaultRepulsion(dims); given: always interpolated). */
  repulsion: RepulsionOptions;
  /** Initial coordinates (row-major n × dims), e.g. the leading PCs; otherwise random N(0, 1e-4²) from `seed`. */
  init?: Float32Array | Float64Array;
  seed: number;
}

/**
 * Every this many iterations the points are renumbered in the layout's spatial order
 * (methods/tsne/order): memory locality only — the layout is the same up to rounding.
 */
export const REORDER_EVERY = 50;

export const DEFAULT_TSNE: TsneOptions = {
  dims: 2,
  earlyExaggerationIter: 250,
  earlyExaggeration: 12,
  initialMomentum: 0.5,
  nIter: 500,
  finalMomentum: 0.8,
  learningRate: 'auto',
  seed: 42,
  repulsion: DEFAULT_REPULSION,
};

/**
 * Initial layout as openTSNE's: the given coordinates (e.g. the first PCs) rescaled so that the
 * first axis has standard deviation 1e-4, or seeded Gaussian noise of that spread.
 */
export function tsneInit(
  n: number,
  dims: number,
  init: ArrayLike<number> | undefined,
  seed: number,
): Float64Array {
  const y = new Float64Array(n * dims);
  if (init) {
    const stride = init.length / n;
    if (!Number.isInteger(stride) || stride < dims)
      throw new Error(`tsne: init has ${init.length} values, need ${n} × ≥ ${dims}`);
    for (let i = 0; i < n; i++) for (let a = 0; a < dims; a++) y[i * dims + a] = init[i * stride + a];
    for (let a = 0; a < dims; a++) {
      let mean = 0;
      for (let i = 0; i < n; i++) mean += y[i * dims + a];
      mean /= n;
      for (let i = 0; i < n; i++) y[i * dims + a] -= mean;
    }
    let sd = 0;
    for (let i = 0; i < n; i++) sd += y[i * dims] ** 2;
    sd = Math.sqrt(sd / Math.max(1, n - 1));
    if (sd > 0) for (let t = 0; t < y.length; t++) y[t] *= 1e-4 / sd;
    else init = undefined;
  }
  if (!init) {
    const rng = new Random(seed);
    for (let t = 0; t < y.length; t++) y[t] = 1e-4 * rng.normal();
  }
  return y;
}

/**
 * t-SNE (van der Maaten & Hinton 2008) with openTSNE's optimisation: attractive forces over the
 * sparse perplexity-calibrated affinities (methods/tsne/affinities), repulsive forces by FFT-
 * accelerated interpolation in 2D from BH_MAX_POINTS points (methods/tsne/repulsion), by Barnes–Hut
 * below and always in 3D unless `repulsion` is given (methods/tsne/barnes-hut),
 * gradient 4·(exaggeration·Σ pᵢⱼ qᵢⱼ (yᵢ − yⱼ)
 * − Σ qᵢⱼ² (yᵢ − yⱼ) / Z), delta-bar-delta gains (+0.2 / ×0.8, at least 0.01), momentum 0.5 in the
 * early exaggeration phase and 0.8 after, the embedding re-centred each iteration. Deterministic:
 * single-threaded, no randomness beyond the seeded initialisation.
 * `onProgress(done, total)` is called every 10 iterations.
 */
export function tsne(
  aff: TsneAffinities,
  options: Partial<TsneOptions> = {},
  onProgress?: (done: number, total: number) => void,
): Float32Array {
  const run = tsneIterations(() => affinityRows(aff), options, onProgress);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
  }
}

/**
 * `tsne` giving the event loop a turn after each iteration (`pause`, e.g. setImmediate): the same
 * layout, while I/O callbacks on this thread (the outputs being written and deflated on libuv's
 * thread pool alongside, engine write-outputs) keep going. The affinities come as compressed rows
 * from `takeRows`, called once: when the caller keeps no reference of its own, the rows given are
 * freed at the first spatial reordering (only the reordered copy is held; issue 14's 100k peak).
 */
export async function tsneAsync(
  takeRows: () => AffinityRows,
  options: Partial<TsneOptions>,
  onProgress: ((done: number, total: number) => void) | undefined,
  pause: () => Promise<void>,
): Promise<Float32Array> {
  const run = tsneIterations(takeRows, options, onProgress);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
    await pause();
  }
}

/**
 * Below this many points the repulsion is approximated by Barnes–Hut (as openTSNE's "auto", which
 * switches at 10,000): the FFT grid's cost is fixed per iteration (~34 ms at pbmc3k's 2,700 points
 * against ~9 ms for the tree), and the tree's grows as n log n (~60 ms at 10,000 points against
 * the grid's ~40 ms on this machine; docs/benchmarks/engine.md, "t-SNE by Barnes–Hut").
 */
export const BH_MAX_POINTS = 8000;

/**
 * The repulsion of a layout: FFT interpolation when `given` or in 2D from BH_MAX_POINTS points,
 * otherwise Barnes–Hut (and always in 3D, where the grid within budget is too coarse).
 */
function repulsionFor(
  n: number,
  dims: 2 | 3,
  given: RepulsionOptions | undefined,
): { compute(y: Float64Array, out: Float64Array): number } {
  if (given || (dims === 2 && n >= BH_MAX_POINTS))
    return new FftRepulsion(n, dims, given ?? defaultRepulsion(dims));
  return new BarnesHutRepulsion(n, dims);
}

/** The t-SNE optimisation, one iteration per `next()`; returns the layout (input cell order). */
function* tsneIterations(
  takeRows: () => AffinityRows,
  options: Partial<TsneOptions>,
  onProgress?: (done: number, total: number) => void,
): Generator<void, Float32Array> {
  const o = { ...DEFAULT_TSNE, ...options };
  let graph = takeRows();
  const n = graph.start.length - 1;
  const dims = o.dims;
  if (n < 2) return new Float32Array(n * dims);
  const lr = o.learningRate === 'auto' ? Math.max(200, n / 12) : o.learningRate;
  const y = tsneInit(n, dims, o.init, o.seed);
  const grad = new Float64Array(n * dims);
  const rep = new Float64Array(n * dims);
  const update = new Float64Array(n * dims);
  const gains = new Float64Array(n * dims).fill(1);
  const repulsion = repulsionFor(n, dims, options.repulsion);
  // internal numbering: point i here is cell order[i]; renumbered in spatial order as it forms
  let order = Int32Array.from({ length: n }, (_, i) => i);
  const scratch = new Float64Array(n * dims);
  const total = o.earlyExaggerationIter + o.nIter;
  for (let iter = 0; iter < total; iter++) {
    if (iter % REORDER_EVERY === 0) {
      const next = spatialOrder(y, n, dims);
      const rank = new Int32Array(n);
      for (let i = 0; i < n; i++) rank[next[i]] = i;
      graph = reorderRows(graph, next, rank);
      for (const v of [y, update, gains]) permuteRows(v, next, dims, scratch);
      order = Int32Array.from(next, (old) => order[old]);
    }
    const early = iter < o.earlyExaggerationIter;
    if (iter === o.earlyExaggerationIter) update.fill(0); // a new optimisation phase, as openTSNE
    const exaggeration = early ? o.earlyExaggeration : 1;
    const momentum = early ? o.initialMomentum : o.finalMomentum;
    // repulsion
    const z = repulsion.compute(y, rep);
    const invZ = z > 0 ? 1 / z : 0;
    for (let t = 0; t < grad.length; t++) grad[t] = -rep[t] * invZ;
    // attraction over the affinity edges
    if (dims === 2) attract2d(y, graph, exaggeration, grad);
    else attract(y, dims, graph, exaggeration, grad);
    // delta-bar-delta gains, momentum step, re-centre
    for (let t = 0; t < y.length; t++) {
      const g4 = 4 * grad[t];
      // sklearn / openTSNE: the gain grows while the step keeps its direction against the gradient
      gains[t] = update[t] * g4 < 0 ? gains[t] + 0.2 : Math.max(0.01, gains[t] * 0.8);
      update[t] = momentum * update[t] - lr * gains[t] * g4;
      y[t] += update[t];
    }
    for (let a = 0; a < dims; a++) {
      let mean = 0;
      for (let i = 0; i < n; i++) mean += y[i * dims + a];
      mean /= n;
      for (let i = 0; i < n; i++) y[i * dims + a] -= mean;
    }
    if (onProgress && ((iter + 1) % 10 === 0 || iter + 1 === total)) onProgress(iter + 1, total);
    yield;
  }
  const out = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) for (let a = 0; a < dims; a++) out[order[i] * dims + a] = y[i * dims + a];
  return out;
}

/** The attraction in any dimension: exaggeration · Σ pᵢⱼ (yᵢ − yⱼ) / (1 + d²) into grad. */
function attract(
  y: Float64Array,
  dims: number,
  g: AffinityRows,
  exaggeration: number,
  grad: Float64Array,
): void {
  const { start, cols, p } = g;
  for (let i = 0; i < start.length - 1; i++) {
    for (let e = start[i]; e < start[i + 1]; e++) {
      const j = cols[e] * dims;
      let d2 = 0;
      for (let a = 0; a < dims; a++) {
        const diff = y[i * dims + a] - y[j + a];
        d2 += diff * diff;
      }
      const w = (exaggeration * p[e]) / (1 + d2);
      for (let a = 0; a < dims; a++) {
        const f = w * (y[i * dims + a] - y[j + a]);
        grad[i * dims + a] += f;
        grad[j + a] -= f;
      }
    }
  }
}

/** The 2D attraction (the common case), with the coordinates in locals. */
function attract2d(y: Float64Array, g: AffinityRows, exaggeration: number, grad: Float64Array): void {
  const { start, cols, p } = g;
  const n = start.length - 1;
  for (let i = 0; i < n; i++) {
    const xi = y[2 * i];
    const yi = y[2 * i + 1];
    let fx = 0;
    let fy = 0;
    for (let e = start[i], end = start[i + 1]; e < end; e++) {
      const j = cols[e];
      const dx = xi - y[2 * j];
      const dy = yi - y[2 * j + 1];
      const w = (exaggeration * p[e]) / (1 + dx * dx + dy * dy);
      fx += w * dx;
      fy += w * dy;
      grad[2 * j] -= w * dx;
      grad[2 * j + 1] -= w * dy;
    }
    grad[2 * i] += fx;
    grad[2 * i + 1] += fy;
  }
}
