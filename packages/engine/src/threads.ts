import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The most threads the engine computes on, whatever CELLCLOUD_ENGINE_THREADS asks. */
export const MAX_ENGINE_THREADS = 8;

/**
 * The number of threads the engine computes on (issue 32, docs/reproducibility.md): the
 * `CELLCLOUD_ENGINE_THREADS` environment variable (1 to MAX_ENGINE_THREADS), by default 2 (the
 * platform's machines give each job two cores) — never more than the cores this process may run on
 * (`os.availableParallelism()`: 1 on a one-core machine or CPU set). Read at each call, so every
 * place that may start a worker thread (scran.js initialisation, the sparse PCA products, the kNN
 * search, the Wilcoxon tests, the UMAP layouts) follows it; the sparse products and the kNN search
 * use all of them, the others at most two. Results do not depend on it: each of those splits its
 * work the same way whatever the thread count (test: packages/engine/test/reproducible.test.ts).
 */
export function engineThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const cap = Math.max(1, Math.min(cores, MAX_ENGINE_THREADS));
  const n = Number(env.CELLCLOUD_ENGINE_THREADS);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, cap) : Math.min(2, cap);
}

/**
 * A helper worker thread: one worker started from a kernel file to share the caller's work (the
 * Wilcoxon tests, stats/wilcoxon.ts; the streamed markers, stream/markers.ts). The caller does all
 * the work the helper does not, so a helper that cannot start (undefined) or fails ('error',
 * swallowed here) costs time only: the kernel's protocol leaves its unfinished work to the caller.
 * It is unref()'d, so it never keeps the process alive. `url` is the kernel file, resolved by the
 * caller (`new URL('./x-kernel.ts', import.meta.url)`); `workerData` is passed as is.
 */
export function startHelperWorker(url: URL, workerData: unknown): Worker | undefined {
  try {
    const worker = new Worker(url, { workerData });
    worker.unref();
    worker.on('error', () => {});
    return worker;
  } catch {
    return undefined;
  }
}

let helperWorkersExit: Promise<void> = Promise.resolve();

/**
 * Terminates a helper worker once the caller is done with it (nothing when undefined). Its exit
 * is asynchronous and until then it still references the shared buffers it was given, so they
 * cannot be freed: helperWorkersExited() awaits it.
 */
export function endHelperWorker(worker: Worker | undefined): void {
  if (!worker) return;
  const exited = worker.terminate().catch(() => 0);
  helperWorkersExit = Promise.all([helperWorkersExit, exited]).then(() => undefined);
}

/** Resolves once every helper worker ended so far (endHelperWorker) has exited. */
export function helperWorkersExited(): Promise<void> {
  return helperWorkersExit;
}

/**
 * Work shared by chunks (issue 33, docs/engine-scaling.md#what-uses-both-cores): `nChunks` chunks,
 * fixed by the data and never by the thread count, claimed in increasing order from a shared
 * counter by the calling thread and any worker threads holding the same `control` array, so a
 * thread the scheduler starves on a loaded machine holds up only the chunk it is on. Nobody spins:
 * a thread that finds no chunk left returns; the one waiting for the others sleeps in Atomics.wait
 * (waitChunks) or Atomics.waitAsync (waitChunksAsync) until the thread completing the last chunk
 * wakes it. Results stay the same whoever claims what when each chunk writes its own output (or its
 * own partial sum, added in chunk order afterwards). `control` is an Int32Array on a
 * SharedArrayBuffer with CHUNK_SLOTS slots from `base`: [next chunk, chunks done]; `newChunks`
 * makes one, `resetChunks` reuses it for another round.
 */
export const CHUNK_SLOTS = 2;

/** A fresh control array (counter at 0: ready to claim). */
export function newChunks(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CHUNK_SLOTS * 4));
}

/** Reopens the chunks of `control` for a new round (call before the claimers start on it). */
export function resetChunks(control: Int32Array, base = 0): void {
  // done before next: a claimer still leaving the previous round may claim from the new counter
  Atomics.store(control, base + 1, 0);
  Atomics.store(control, base, 0);
}

/**
 * Runs `run(chunk)` for chunks claimed from `control` until none is left; returns how many this
 * thread ran. The same loop runs in the calling thread and in each worker.
 */
export function claimChunks(
  control: Int32Array,
  nChunks: number,
  run: (chunk: number) => void,
  base = 0,
): number {
  let ran = 0;
  for (let c = Atomics.add(control, base, 1); c < nChunks; c = Atomics.add(control, base, 1)) {
    run(c);
    ran++;
    if (Atomics.add(control, base + 1, 1) + 1 === nChunks) Atomics.notify(control, base + 1);
  }
  return ran;
}

/** Chunks completed so far. */
export const chunksDone = (control: Int32Array, base = 0): number => Atomics.load(control, base + 1);

/** Sleeps (Atomics.wait: a worker, or a calling thread that may block) until every chunk is done. */
export function waitChunks(control: Int32Array, nChunks: number, base = 0): void {
  for (let d = chunksDone(control, base); d < nChunks; d = chunksDone(control, base))
    Atomics.wait(control, base + 1, d);
}

/**
 * Resolves once every chunk is done, without blocking the event loop (Atomics.waitAsync), or
 * once `stop` resolves (e.g. a worker failed: the caller then redoes its chunk).
 */
export async function waitChunksAsync(
  control: Int32Array,
  nChunks: number,
  stop: Promise<unknown> = new Promise(() => {}),
  base = 0,
): Promise<boolean> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  for (let d = chunksDone(control, base); d < nChunks && !stopped; d = chunksDone(control, base)) {
    const r = waitAsync(control, base + 1, d);
    if (r.async) await Promise.race([r.value, stop]);
  }
  return chunksDone(control, base) >= nChunks;
}

/**
 * `nChunks` chunks run by the calling thread and up to `nWorkers` worker threads started from `url`
 * with workerData `{ ...data, control, slot }` (the worker claims with `claimChunks` and records the
 * chunk + 1 it is on in `control[slot]`); the chunk of a worker that fails is redone here, and a
 * worker that cannot start leaves its share to the others. Used by the kNN scan and the
 * community-detection restarts.
 */
export async function runChunksWithWorkers(opts: {
  url: URL;
  data: Record<string, unknown>;
  nChunks: number;
  nWorkers: number;
  run: (chunk: number) => void;
}): Promise<void> {
  const { url, data, nChunks, nWorkers, run } = opts;
  // [next chunk, chunks done, (chunk + 1) each worker is on]
  const control = new Int32Array(new SharedArrayBuffer((CHUNK_SLOTS + nWorkers) * 4));
  const workers: Worker[] = [];
  const failures: number[] = [];
  let failed: () => void = () => {};
  let anyFailure = new Promise<void>((resolve) => (failed = resolve));
  for (let t = 0; t < nWorkers; t++) {
    const slot = CHUNK_SLOTS + t;
    try {
      const worker = new Worker(url, { workerData: { ...data, control, slot } });
      const lost = () => {
        failures.push(slot);
        failed();
      };
      worker.once('error', lost);
      worker.once('exit', (code) => code !== 0 && lost());
      workers.push(worker);
    } catch {
      break;
    }
  }
  try {
    claimChunks(control, nChunks, run);
    while (!(await waitChunksAsync(control, nChunks, anyFailure))) {
      // a worker failed: redo the chunk it was on (if any) and count it, then wait again
      for (const slot of failures.splice(0)) {
        const c = Atomics.exchange(control, slot, 0) - 1;
        if (c < 0) continue;
        run(c);
        if (Atomics.add(control, 1, 1) + 1 === nChunks) Atomics.notify(control, 1);
      }
      anyFailure = new Promise<void>((resolve) => (failed = resolve));
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Atomics.waitAsync (Node ≥ 16; typed from ES2024, the engine's lib is ES2023). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** First item of chunk c when n items are cut into nChunks chunks of near-equal size. */
export const chunkStart = (n: number, nChunks: number, c: number): number => Math.floor((c * n) / nChunks);
