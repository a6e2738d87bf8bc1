import { engineThreads } from '../threads';
import type { WeightedGraph } from '../methods/fuzzy-graph';
import { Worker } from 'node:worker_threads';
import { Random } from '../methods/random';
import {
  abortPartitioned,
  optimizeLayout,
  sgdState,
  SGD_PARTITIONS,
  type SgdInput,
  type SgdMessage,
  type SgdState,
} from './umap-sgd';

/**
 * Graphs up to this many nodes get the sequential SGD (one thread, the coordinates they always
 * had); larger ones the partitioned SGD (stats/umap-sgd `runPartitioned`) on every engine thread,
 * with the same coordinates for 1, 2 or 3 threads — the size from which the streamed run computes
 * the 2-D UMAP only (STREAMED_ALL_LAYOUTS_MAX_CELLS), where the layout's single thread was the
 * longest step (816 s at 500k cells, docs/engine-scaling.md).
 */
export const UMAP_SEQUENTIAL_MAX_NODES = 200_000;

/** Layout options: output dimensions, umap-learn min_dist and epochs, seed of the generator. */
export interface UmapLayoutOptions {
  dims: number;
  minDist: number;
  epochs: number;
  seed: number;
  /** Largest graph for the sequential SGD (default UMAP_SEQUENTIAL_MAX_NODES; tests lower it). */
  sequentialMaxNodes?: number;
  /** Threads of a UmapLayoutJob (default engineThreads(); the coordinates do not depend on it). */
  threads?: number;
}

const partitioned = (input: SgdInput, opts: UmapLayoutOptions): boolean =>
  input.nNodes > (opts.sequentialMaxNodes ?? UMAP_SEQUENTIAL_MAX_NODES);

/** The layout on the calling thread: the sequential or the partitioned SGD by the graph's size. */
function layoutHere(
  input: SgdInput,
  opts: UmapLayoutOptions,
  onEpochs?: (done: number) => void,
): Float32Array {
  const parts = partitioned(input, opts) ? SGD_PARTITIONS : 1;
  return optimizeLayout(input, new Random(opts.seed), onEpochs, 10, parts);
}

/**
 * A compact UMAP layout (McInnes et al. 2018) in any dimension over the fuzzy simplicial set of a
 * kNN graph (methods/fuzzy-graph: umap-learn's membership strengths and fuzzy union, the same graph
 * the clustering uses), with typed arrays only (umap-js keeps Map-based matrices: ~3 GB at 20k
 * cells). As umap-learn: edges weaker than max/epochs dropped, every symmetric edge in both
 * directions, the a/b curve fitted to min_dist (spread 1), random initialisation in [−10, 10]
 * (umap-learn's init='random'), SGD with 5 negative samples per positive edge, learning rate 1
 * decaying linearly, gradients clipped at 4 (the SGD loop is in stats/umap-sgd.ts; above
 * `sequentialMaxNodes` nodes its partitioned form). Runs on the calling thread; `UmapLayoutJob`
 * runs the same computation in worker threads, with the same result.
 */
export function umapLayout(
  g: WeightedGraph,
  opts: UmapLayoutOptions,
  onProgress?: (fraction: number) => void,
): Float32Array {
  const input = sgdInput(g, opts);
  return layoutHere(input, opts, onProgress && ((done) => onProgress(done / input.epochs)));
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
 * A UMAP layout running in worker threads (stats/umap-sgd.ts: the edges shared, the coordinates
 * transferred back), started by the constructor: the caller goes on with other work and joins
 * with `result()` (or stops it with `cancel()`). Up to `sequentialMaxNodes` nodes one worker runs
 * the sequential SGD; above, engineThreads() workers share the partitioned SGD's state (worker 0
 * closes the epochs and reports). The coordinates are those `umapLayout` gives for the same graph
 * and options (same code, same seeded generator, whatever the thread count). With one engine
 * thread, or if a worker cannot start or fails, `result()` computes on the calling thread.
 */
export class UmapLayoutJob {
  /** Fraction of the epochs done so far. */
  fraction = 0;
  /** Where the coordinates were computed, once `result()` has returned. */
  ranIn: 'worker' | 'main' | undefined;
  /** Worker threads started (0: computed on the calling thread). */
  readonly threads: number;
  private listener: ((fraction: number) => void) | undefined;
  private workers: Worker[] = [];
  private state: SgdState | undefined;
  private readonly outcome: Promise<Float32Array | undefined>;
  private input: SgdInput | undefined;
  private readonly opts: UmapLayoutOptions;

  constructor(g: WeightedGraph, opts: UmapLayoutOptions) {
    const input = sgdInput(g, opts);
    this.input = input;
    this.opts = opts;
    const url = new URL('./umap-sgd.ts', import.meta.url);
    const nThreads = opts.threads ?? engineThreads();
    try {
      // one engine thread (engineThreads): computed on the calling thread in result()
      if (nThreads > 1 && partitioned(input, opts)) {
        // state drawn here, as optimizeLayout draws it; at most one thread per partition
        const state = (this.state = sgdState(input, new Random(opts.seed), SGD_PARTITIONS));
        for (let role = 0; role < Math.min(nThreads, SGD_PARTITIONS); role++)
          this.workers.push(new Worker(url, { workerData: { task: 'umap-sgd-partitioned', state, role } }));
      } else if (nThreads > 1)
        this.workers.push(new Worker(url, { workerData: { task: 'umap-sgd', input } }));
    } catch {
      void this.stopWorkers();
    }
    this.threads = this.workers.length;
    const [first, ...others] = this.workers;
    this.outcome = !first
      ? Promise.resolve(undefined)
      : new Promise((resolve) => {
          const state = this.state;
          first.on('message', (m: SgdMessage) => {
            if (m.type === 'progress') this.update(m.epochs / input.epochs);
            else resolve(m.values ?? (state && Float32Array.from(state.y)));
          });
          first.once('error', () => resolve(undefined));
          first.once('exit', () => resolve(undefined));
          // the other threads of a partitioned SGD end by themselves once no chunk is left
          for (const w of others) {
            w.once('error', () => resolve(undefined));
            w.once('exit', (code) => code !== 0 && resolve(undefined));
          }
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
    await this.stopWorkers();
    const input = this.input;
    this.input = undefined;
    if (values) {
      this.ranIn = 'worker';
      this.update(1);
      return values;
    }
    if (!input) throw new Error('UmapLayoutJob: result() was already taken or the job was cancelled');
    this.ranIn = 'main';
    return layoutHere(input, this.opts, (done) => this.update(done / input.epochs));
  }

  /** Stops the worker (if still running); the job gives no result afterwards. */
  async cancel(): Promise<void> {
    this.input = undefined;
    await this.stopWorkers();
  }

  /** Stops the workers (threads of a partitioned SGD waiting on each other first told to stop). */
  private async stopWorkers(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    if (this.state) abortPartitioned(this.state);
    this.state = undefined;
    await Promise.all(workers.map((w) => w.terminate()));
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
