import { availableParallelism } from 'node:os';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { runSlicesOnWorkers } from '@cellcloud/engine/tasks/worker-pool';
import { runPermutations, type KernelInput } from './permute-kernel';

/** A copy of a typed array on a SharedArrayBuffer (workers read it without copying). */
export function shared<T extends Int32Array | Float32Array | Float64Array>(a: T): T {
  const Ctor = a.constructor as { new (b: SharedArrayBuffer): T };
  const out = new Ctor(new SharedArrayBuffer(a.byteLength));
  (out as unknown as { set(x: ArrayLike<number>): void }).set(a);
  return out;
}

export interface PermutationOptions {
  iterations: number;
  /** Worker threads (default: available parallelism, at most 8). 0 or 1 = this thread only. */
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * For every interaction × cell-type pair, how many of the `iterations` label shuffles give a mean
 * strictly greater than the real one. Permutations are cut into slices handed to worker threads
 * (inputs in SharedArrayBuffers); each permutation seeds its own generator, and the counts are
 * integers summed per slice, so the result does not depend on the thread count or the scheduling.
 */
export async function countGreater(input: KernelInput, opts: PermutationOptions): Promise<Uint32Array> {
  const nOut = input.ia.length * input.pa.length;
  const total = new Uint32Array(nOut);
  const n = opts.iterations;
  let done = 0;
  const tick = () => {
    done++;
    if (done % 10 === 0 || done === n) opts.onProgress?.(done, n);
  };
  const threads = Math.max(0, Math.min(opts.threads ?? Math.min(availableParallelism(), 8), 16));
  const checkAbort = () => {
    if (opts.signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
  };
  if (threads <= 1 || n < 20) {
    const step = 25;
    for (let from = 0; from < n; from += step) {
      checkAbort();
      runPermutations(input, from, Math.min(n, from + step), total, tick);
      await new Promise((r) => setImmediate(r));
    }
    return total;
  }
  const sharedInput: KernelInput = {
    ...input,
    cellPtr: shared(input.cellPtr),
    cellRow: shared(input.cellRow),
    cellVal: shared(input.cellVal),
    labels: shared(input.labels),
    typeSize: shared(input.typeSize),
    complexPtr: shared(input.complexPtr),
    complexRows: shared(input.complexRows),
    ia: shared(input.ia),
    ib: shared(input.ib),
    pa: shared(input.pa),
    pb: shared(input.pb),
    real: shared(input.real),
    activePtr: shared(input.activePtr),
    activePairs: shared(input.activePairs),
  };
  const sliceSize = Math.max(5, Math.ceil(n / (threads * 6)));
  const slices: [number, number][] = [];
  for (let from = 0; from < n; from += sliceSize) slices.push([from, Math.min(n, from + sliceSize)]);
  const left = await runSlicesOnWorkers<{ tick?: number; done?: boolean; greater?: Uint32Array }>({
    script: new URL('./permute-kernel.ts', import.meta.url),
    workerData: { task: 'cpdb-permute', input: sharedInput },
    threads,
    slices,
    signal: opts.signal,
    onMessage: (msg) => {
      if (msg.tick) tick();
      else if (msg.done && msg.greater) {
        const g = msg.greater;
        for (let k = 0; k < nOut; k++) total[k] += g[k]!;
        return true;
      }
      return false;
    },
  });
  if (!left) return countGreater(input, { ...opts, threads: 1 });
  checkAbort();
  // a slice whose worker died (or never started) runs here; so does any slice not handed out
  for (const [from, to] of left) runPermutations(input, from, to, total, tick);
  return total;
}
