import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Random } from '../methods/random';

/**
 * The stochastic gradient descent of the UMAP layout (stats/umap-layout), on its own so that
 * worker threads can run it while the main thread goes on with the pipeline. Two forms: the
 * sequential SGD (`optimizeLayout`, one thread, graphs up to UMAP_SEQUENTIAL_MAX_NODES = 200k
 * nodes: the coordinates they always had) and, above, the partitioned SGD (`runPartitioned`,
 * issue 33): the nodes cut into SGD_PARTITIONS = 64 fixed blocks, each epoch run block by block
 * against a snapshot of the other blocks, their moves buffered and applied in block order at the
 * end of the epoch, negative samples seeded per (block, epoch) — so any number of threads, claiming
 * blocks from a shared counter, gives the same coordinates bit for bit (1 thread = 2 = 3, reruns
 * equal). Node loads this file directly as a worker (type annotations stripped): erasable
 * TypeScript only, no static import of ours (the seeded generator, methods/random.ts, is loaded
 * by its file URL in the worker).
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
export type SgdMessage = { type: 'progress'; epochs: number } | { type: 'done'; values?: Float32Array };

/**
 * Random initialisation in [−10, 10], then SGD as umap-learn's `optimize_layout_euclidean`: edge e
 * is sampled every epochs_per_sample = max weight / weight epochs, with 5 negative samples per
 * positive one (epochs_per_negative_sample = epochs_per_sample / 5; cells drawn by umap-learn's
 * tau-rand generator, seeded from `rng`), learning rate 1 decaying linearly, gradients clipped at 4.
 * `onEpochs(done)` is called every `every` epochs (and after the last). With `partitions` > 1
 * the partitioned SGD (`runPartitioned`) on the calling thread: the coordinates its threads give.
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
  partitions = 1,
): Float32Array {
  if (partitions > 1) {
    const parted = sgdState(s, rng, partitions);
    runPartitioned(parted, 0, onEpochs, every);
    return Float32Array.from(parted.y);
  }
  const st = sgdState(s, rng, 1);
  const tau = Int32Array.from(st.tauBase);
  const run = edgeKernel(st);
  const nEdges = s.rows.length;
  for (let epoch = 0; epoch < s.epochs; epoch++) {
    // one partition, all nodes: every update live, one generator stream across the epochs
    run(epoch, 0, nEdges, 0, s.nNodes, tau, 0);
    if (onEpochs && ((epoch + 1) % every === 0 || epoch + 1 === s.epochs)) onEpochs(epoch + 1);
  }
  return st.y;
}

/**
 * Node partitions of the partitioned SGD (`runPartitioned`): a fixed number, never the
 * thread count, so that the coordinates depend on the seed alone.
 */
export const SGD_PARTITIONS = 64;

/**
 * The SGD's state, on shared memory so that worker threads work on it together: coordinates,
 * per-edge schedules and, for the partitioned SGD, the snapshot of the coordinates at the start
 * of the epoch and the buffered moves of other partitions' nodes.
 */
export interface SgdState {
  input: SgdInput;
  parts: number;
  wMax: number;
  /** Coordinates (row-major nNodes × dims), updated live by the partition owning the node. */
  y: Float32Array;
  /** y at the start of the epoch (partitioned only: what a partition reads of the others). */
  snap: Float32Array;
  /** Epoch at which each edge is next sampled, and when its next negative samples are due. */
  nextSample: Float64Array;
  nextNeg: Float64Array;
  /** First edge of each partition (edges sorted by head node), length parts + 1. */
  edgeStart: Int32Array;
  /** First move slot of each partition (one per edge whose tail is outside it), length parts + 1. */
  moveStart: Int32Array;
  /** Moves written by each partition this epoch. */
  moveCount: Int32Array;
  /** Buffered moves: coordinate offset of the node (node · dims) and the step to subtract (dims per slot). */
  moveNode: Int32Array;
  moveStep: Float32Array;
  /** umap-learn's tau-rand state, drawn from the seeded generator (mixed per partition and epoch). */
  tauBase: Int32Array;
  /** [next chunk claimed, chunks done, epochs opened, abort] (partitioned, several threads). */
  control: Int32Array;
}

const NEXT = 0;
const DONE = 1;
const OPENED = 2;
const ABORT = 3;

const shared = <T>(make: new (b: ArrayBufferLike) => T, bytes: number): T =>
  new make(new SharedArrayBuffer(Math.max(bytes, 8)));
const plain = <T>(make: new (b: ArrayBufferLike) => T, bytes: number): T => new make(new ArrayBuffer(bytes));
/** The lowest bits set in each tau-rand component (keep it non-degenerate). */
const TAU_BITS = [2, 8, 16];

/** Start of node partition p of n nodes in `parts` partitions. */
const partStart = (n: number, parts: number, p: number): number => Math.floor((p * n) / parts);

/**
 * The initial state: coordinates drawn from `rng` (uniform in [−10, 10]) then the tau-rand state,
 * as the sequential SGD always drew them; `parts` node partitions (1: the sequential SGD).
 */
export function sgdState(s: SgdInput, rng: LayoutRandom, parts: number): SgdState {
  const { nNodes: n, dims, rows, cols, weights } = s;
  if (dims !== 2 && dims !== 3) throw new Error(`UMAP layout: dims must be 2 or 3 (got ${dims})`);
  // float32 coordinates, row-major n × dims (the negative samples read them at random: at 100k
  // cells the array must stay small for the caches); float64 arithmetic
  // shared memory for the threads of a partitioned SGD; the sequential one transfers y back
  const alloc = parts > 1 ? shared : plain;
  const y = alloc(Float32Array, n * dims * 4);
  for (let i = 0; i < y.length; i++) y[i] = 20 * rng.uniform() - 10;
  const tauBase = Int32Array.from(TAU_BITS, (bits) => rng.nextUint32() | bits);
  let wMax = 0;
  for (const w of weights) if (w > wMax) wMax = w;
  const nEdges = rows.length;
  // epochs per positive sample (wMax / w) and per negative sample (that / 5) are recomputed where
  // used (the same float64 operations, so the same values): only the two schedules are stored,
  // 16 B per edge instead of 32 (~100 MB less per layout worker at 100k cells, issue 14)
  const nextSample = alloc(Float64Array, nEdges * 8);
  const nextNeg = alloc(Float64Array, nEdges * 8);
  for (let e = 0; e < nEdges; e++) {
    const w = weights[e];
    nextSample[e] = w > 0 ? wMax / w : Infinity;
    nextNeg[e] = nextSample[e] / NEG_RATE;
  }
  const edgeStart = new Int32Array(parts + 1);
  const moveStart = new Int32Array(parts + 1);
  edgeStart[parts] = nEdges;
  if (parts > 1) {
    // edges grouped by head partition: buildEdgeList writes them by head node
    let e = 0;
    for (let p = 0; p < parts; p++) {
      edgeStart[p] = e;
      const lo = partStart(n, parts, p);
      const hi = partStart(n, parts, p + 1);
      let moves = 0;
      for (; e < nEdges && rows[e] < hi; e++) {
        if (rows[e] < lo) throw new Error('UMAP layout: the edges must be sorted by head node');
        if (cols[e] < lo || cols[e] >= hi) moves++;
      }
      moveStart[p + 1] = moveStart[p] + moves;
    }
    if (e !== nEdges) throw new Error('UMAP layout: edge head outside the nodes');
  }
  const slots = moveStart[parts];
  return {
    input: s,
    parts,
    wMax,
    y,
    snap: parts > 1 ? shared(Float32Array, n * dims * 4) : y,
    nextSample,
    nextNeg,
    edgeStart: shareCopy(edgeStart),
    moveStart: shareCopy(moveStart),
    moveCount: shared(Int32Array, parts * 4),
    moveNode: shared(Int32Array, slots * 4),
    moveStep: shared(Float32Array, slots * dims * 4),
    tauBase,
    control: shared(Int32Array, 4 * 4),
  };
}

function shareCopy(a: Int32Array): Int32Array {
  const c = shared(Int32Array, a.length * 4);
  c.set(a);
  return c;
}

const NEG_RATE = 5;

/**
 * The SGD over edges [e0, e1) in epoch `epoch`, whose heads are the nodes [lo, hi) of one
 * partition: those nodes and the tails inside the partition move live; the others are read from
 * the snapshot and their moves written to the partition's slots from `slot` (returns the next
 * slot). With one partition (snap = y) this is the sequential SGD. `tau` holds the generator's
 * state, read at the start and written back at the end.
 */
function edgeKernel(st: SgdState) {
  const { nNodes: n, dims, epochs, a, b, rows, cols, weights } = st.input;
  const { y, snap, nextSample, nextNeg, moveNode, moveStep, wMax } = st;
  const three = dims === 3;
  const pow = powTable(b);
  const draw = n / 4294967296;
  const m2ab = -2 * a * b;
  const twoB = 2 * b;
  return (
    epoch: number,
    e0: number,
    e1: number,
    lo: number,
    hi: number,
    tau: Int32Array,
    slot: number,
  ): number => {
    const alpha = 1 - epoch / epochs;
    const due = epoch + 1;
    const loY = lo * dims;
    const hiY = hi * dims;
    let r0 = tau[0];
    let r1 = tau[1];
    let r2 = tau[2];
    for (let e = e0; e < e1; e++) {
      if (nextSample[e] > due) continue;
      const i = rows[e] * dims;
      const j = cols[e] * dims;
      const own = j >= loY && j < hiY;
      const yj = own ? y : snap;
      let xi = y[i];
      let yi = y[i + 1];
      let zi = three ? y[i + 2] : 0;
      const dx = xi - yj[j];
      const dy = yi - yj[j + 1];
      const dz = three ? zi - yj[j + 2] : 0;
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
        if (own) {
          y[j] -= gx;
          y[j + 1] -= gy;
          if (three) y[j + 2] -= gz;
        } else {
          moveNode[slot] = j;
          const m = slot * dims;
          moveStep[m] = gx;
          moveStep[m + 1] = gy;
          if (three) moveStep[m + 2] = gz;
          slot++;
        }
      }
      const w = weights[e];
      const ps = w > 0 ? wMax / w : Infinity;
      const pn = ps / NEG_RATE;
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
        const yk = k >= loY && k < hiY ? y : snap;
        const ex = xi - yk[k];
        const ey = yi - yk[k + 1];
        const ez = three ? zi - yk[k + 2] : 0;
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
    tau[0] = r0;
    tau[1] = r1;
    tau[2] = r2;
    return slot;
  };
}

/**
 * The partitioned SGD (issue 33), for large graphs on several threads with the same result
 * whatever their number: the nodes are cut into SGD_PARTITIONS blocks of indices and each epoch
 * runs partition by partition, each over the edges of its head nodes. Within its partition the
 * SGD moves nodes live; nodes of other partitions are read from a snapshot taken at the start of
 * the epoch and their moves (the tail updates) buffered, then applied at the end of the epoch in
 * partition order; the negative samples of a partition are drawn from a generator seeded by
 * (seed, partition, epoch). A partition's work therefore depends on the state at the start of the
 * epoch only, and any thread may run it: threads claim (epoch, partition) chunks in increasing
 * order from a shared counter; the thread with `role` 0 closes each epoch (waits for its chunks,
 * applies the moves, takes the next snapshot) and reports progress; a thread whose chunk belongs
 * to an epoch not yet opened sleeps (Atomics.wait) until it is. Every thread of one layout calls
 * this with the same state; alone (one thread) it runs every chunk itself.
 */
export function runPartitioned(
  st: SgdState,
  role: number,
  onEpochs?: (done: number) => void,
  every = 10,
): void {
  const { epochs, dims, nNodes: n } = st.input;
  const { parts, control, y, snap, edgeStart, moveStart, moveCount, moveNode, moveStep } = st;
  const total = parts * epochs;
  const run = edgeKernel(st);
  const tau = new Int32Array(3);
  const chunk = (c: number): void => {
    const epoch = Math.floor(c / parts);
    const p = c - epoch * parts;
    for (let t = 0; t < 3; t++) tau[t] = mixTau(st.tauBase[t], p, epoch) | TAU_BITS[t];
    const end = run(
      epoch,
      edgeStart[p],
      edgeStart[p + 1],
      partStart(n, parts, p),
      partStart(n, parts, p + 1),
      tau,
      moveStart[p],
    );
    moveCount[p] = end - moveStart[p];
    if ((Atomics.add(control, DONE, 1) + 1) % parts === 0) Atomics.notify(control, DONE);
  };
  const sleepWhile = (slot: number, below: number): void => {
    for (let v = Atomics.load(control, slot); v < below; v = Atomics.load(control, slot)) {
      if (Atomics.load(control, ABORT)) throw new Error('UMAP layout: stopped');
      Atomics.wait(control, slot, v, 1000);
    }
  };
  if (role !== 0) {
    for (let c = Atomics.add(control, NEXT, 1); c < total; c = Atomics.add(control, NEXT, 1)) {
      sleepWhile(OPENED, Math.floor(c / parts) + 1);
      chunk(c);
    }
    return;
  }
  let opened = 0;
  // closes the open epoch (its chunks done, the buffered moves applied in partition order) and opens the next
  const advance = (): void => {
    if (opened > 0) {
      sleepWhile(DONE, opened * parts);
      for (let p = 0; p < parts; p++)
        for (let s = moveStart[p], end = s + moveCount[p]; s < end; s++) {
          const j = moveNode[s];
          const m = s * dims;
          y[j] -= moveStep[m];
          y[j + 1] -= moveStep[m + 1];
          if (dims === 3) y[j + 2] -= moveStep[m + 2];
        }
      if (onEpochs && (opened % every === 0 || opened === epochs)) onEpochs(opened);
    }
    if (opened < epochs) {
      snap.set(y);
      Atomics.store(control, OPENED, opened + 1);
      Atomics.notify(control, OPENED);
    }
    opened++;
  };
  for (let c = Atomics.add(control, NEXT, 1); ; c = Atomics.add(control, NEXT, 1)) {
    const epoch = Math.min(Math.floor(c / parts), epochs);
    while (opened <= epoch) advance();
    if (c >= total) break;
    chunk(c);
  }
}

/** Stops the threads of a partitioned SGD (they throw at their next wait). */
export function abortPartitioned(st: SgdState): void {
  Atomics.store(st.control, ABORT, 1);
  Atomics.notify(st.control, OPENED);
  Atomics.notify(st.control, DONE);
}

/** A generator state for (partition, epoch) from a base state (two rounds of a 32-bit integer hash). */
function mixTau(base: number, p: number, epoch: number): number {
  let x = (base ^ Math.imul(epoch + 1, 0x9e3779b1) ^ Math.imul(p + 1, 0x85ebca77)) | 0;
  for (let r = 0; r < 2; r++) {
    x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
    x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
    x ^= x >>> 16;
  }
  return x;
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
// and receives progress messages, then the coordinates (transferred back); or, for the
// partitioned SGD, with { task: 'umap-sgd-partitioned', state, role } on each of its threads:
// role 0 posts the progress and a 'done' without values (the coordinates are in state.y).
if (!isMainThread && workerData?.task === 'umap-sgd') {
  const randomUrl = new URL('../methods/random.ts', import.meta.url).href;
  const { Random: Seeded } = (await import(randomUrl)) as { Random: typeof Random };
  const input = workerData.input as SgdInput;
  const post = (m: SgdMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);
  const values = optimizeLayout(input, new Seeded(input.seed), (epochs) =>
    post({ type: 'progress', epochs }),
  );
  post({ type: 'done', values }, [values.buffer as ArrayBuffer]);
} else if (!isMainThread && workerData?.task === 'umap-sgd-partitioned') {
  const { state, role } = workerData as { state: SgdState; role: number };
  const post = (m: SgdMessage) => parentPort?.postMessage(m);
  runPartitioned(state, role, role === 0 ? (epochs) => post({ type: 'progress', epochs }) : undefined);
  if (role === 0) post({ type: 'done' });
}
