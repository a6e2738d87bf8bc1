import { engineThreads } from '../threads';
import type { WeightedGraph } from '../methods/fuzzy-graph';
import { Worker } from 'node:worker_threads';
import { Random } from '../methods/random';
import { optimizeLayout, type SgdInput, type SgdMessage } from './umap-sgd';

/** Layout options: output dimensions, umap-learn min_dist and epochs, seed of the generator. */
export interface UmapLayoutOptions {
  dims: number;
  minDist: number;
  epochs: number;
  seed: number;
}

/**
 * A compact UMAP layout (McInnes et al. 2018) in any dimension over the fuzzy simplicial set of a
 * kNN graph (methods/fuzzy-graph: umap-learn's membership strengths and fuzzy union, the same graph
 * the clustering uses), with typed arrays only (umap-js keeps Map-based matrices: ~3 GB at 20k
 * cells). As umap-learn: edges weaker than max/epochs dropped, every symmetric edge in both
 * directions, the a/b curve fitted to min_dist (spread 1), random initialisation in [−10, 10]
 * (umap-learn's init='random'), SGD with 5 negative samples per positive edge, learning rate 1
 * decaying linearly, gradients clipped at 4 (the SGD loop is in stats/umap-sgd.ts). Runs on the calling thread; `UmapLayoutJob` runs
 * the same computation in a worker thread, with the same result.
 */
export function umapLayout(
  g: WeightedGraph,
  opts: UmapLayoutOptions,
  onProgress?: (fraction: number) => void,
): Float32Array {
  const input = sgdInput(g, opts);
  return optimizeLayout(
    input,
    new Random(opts.seed),
    onProgress && ((done) => onProgress(done / input.epochs)),
  );
}

function sgdInput(g: WeightedGraph, opts: UmapLayoutOptions): SgdInput {
  const [a, b] = fitAB(opts.minDist);
  return {
    nNodes: g.nNodes,
    dims: opts.dims,
    epochs: opts.epochs,
    a,
    b,
    seed: opts.seed,
    ...edgeList(g, opts.epochs),
  };
}

/**
 * A UMAP layout running in a worker thread (stats/umap-sgd.ts: the edges shared, the coordinates
 * transferred back), started by the constructor: the caller goes on with other work and joins
 * with `result()` (or stops it with `cancel()`). The
 * coordinates are those `umapLayout` gives for the same graph and options (same code, same
 * seeded generator). If the worker cannot start or fails, `result()` computes on the calling thread.
 */
export class UmapLayoutJob {
  /** Fraction of the epochs done so far. */
  fraction = 0;
  /** Where the coordinates were computed, once `result()` has returned. */
  ranIn: 'worker' | 'main' | undefined;
  private listener: ((fraction: number) => void) | undefined;
  private worker: Worker | undefined;
  private readonly outcome: Promise<Float32Array | undefined>;
  private input: SgdInput | undefined;

  constructor(g: WeightedGraph, opts: UmapLayoutOptions) {
    const input = sgdInput(g, opts);
    this.input = input;
    let worker: Worker | undefined;
    try {
      // one engine thread (engineThreads): computed on the calling thread in result()
      if (engineThreads() > 1)
        worker = new Worker(new URL('./umap-sgd.ts', import.meta.url), {
          workerData: { task: 'umap-sgd', input },
        });
    } catch {
      worker = undefined;
    }
    this.worker = worker;
    this.outcome = !worker
      ? Promise.resolve(undefined)
      : new Promise((resolve) => {
          worker.on('message', (m: SgdMessage) => {
            if (m.type === 'progress') this.update(m.epochs / input.epochs);
            else resolve(m.values);
          });
          worker.once('error', () => resolve(undefined));
          worker.once('exit', () => resolve(undefined));
        });
  }

  /** Calls `listener` with the fraction done now and at each later report. */
  onProgress(listener: (fraction: number) => void): void {
    this.listener = listener;
    listener(this.fraction);
  }

  /** The coordinates (row-major nNodes × dims); computed on this thread if the worker failed. */
  async result(): Promise<Float32Array> {
    const values = await this.outcome;
    await this.stopWorker();
    const input = this.input;
    this.input = undefined;
    if (values) {
      this.ranIn = 'worker';
      this.update(1);
      return values;
    }
    if (!input) throw new Error('UmapLayoutJob: result() was already taken or the job was cancelled');
    this.ranIn = 'main';
    return optimizeLayout(input, new Random(input.seed), (done) => this.update(done / input.epochs));
  }

  /** Stops the worker (if still running); the job gives no result afterwards. */
  async cancel(): Promise<void> {
    this.input = undefined;
    await this.stopWorker();
  }

  private async stopWorker(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }

  private update(fraction: number): void {
    this.fraction = Math.max(this.fraction, fraction);
    this.listener?.(this.fraction);
  }
}

type Edges = { rows: Int32Array; cols: Int32Array; weights: Float32Array };
/** Edge lists per graph and epoch count: the 2D and 3D layouts of one graph share theirs (read-only). */
const edgeCache = new WeakMap<WeightedGraph, Map<number, Edges>>();

function edgeList(g: WeightedGraph, epochs: number): Edges {
  let byEpochs = edgeCache.get(g);
  if (!byEpochs) edgeCache.set(g, (byEpochs = new Map()));
  let edges = byEpochs.get(epochs);
  if (!edges) byEpochs.set(epochs, (edges = buildEdgeList(g, epochs)));
  return edges;
}

/** The graph's edges in both directions as COO (shared arrays), without those below max weight / epochs (umap-learn). */
function buildEdgeList(g: WeightedGraph, epochs: number): Edges {
  let wMax = 0;
  for (const w of g.weights) if (w > wMax) wMax = w;
  const floor = wMax / Math.max(1, epochs);
  let m = 0;
  for (const w of g.weights) if (w >= floor && w > 0) m++;
  // shared memory: a layout worker reads the same edges (the main thread keeps them for a fallback)
  const rows = new Int32Array(new SharedArrayBuffer(m * 4));
  const cols = new Int32Array(new SharedArrayBuffer(m * 4));
  const weights = new Float32Array(new SharedArrayBuffer(m * 4));
  let e = 0;
  for (let i = 0; i < g.nNodes; i++) {
    for (let p = g.indptr[i]; p < g.indptr[i + 1]; p++) {
      const w = g.weights[p];
      if (!(w >= floor && w > 0)) continue;
      rows[e] = i;
      cols[e] = g.indices[p];
      weights[e++] = w;
    }
  }
  return { rows, cols, weights };
}

/** a, b of 1/(1 + a·d^(2b)) fitted to the UMAP target curve for min_dist (spread 1), by grid search. */
const abCache = new Map<number, [number, number]>();

export function fitAB(minDist: number): [number, number] {
  const cached = abCache.get(minDist);
  if (cached) return cached;
  const xs = Array.from({ length: 300 }, (_, i) => (3 * (i + 1)) / 300);
  const ys = xs.map((x) => (x < minDist ? 1 : Math.exp(-(x - minDist))));
  let best: [number, number] = [1, 1];
  let bestErr = Infinity;
  for (let bi = 0; bi <= 150; bi++) {
    const b = 0.5 + bi * 0.01;
    for (let ai = 0; ai <= 400; ai++) {
      const a = 0.1 + ai * 0.01;
      let err = 0;
      for (let t = 0; t < xs.length; t++) err += (1 / (1 + a * xs[t] ** (2 * b)) - ys[t]) ** 2;
      if (err < bestErr) {
        bestErr = err;
        best = [a, b];
      }
    }
  }
  abCache.set(minDist, best);
  return best;
}
