import { availableParallelism } from 'node:os';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { runSlicesOnWorkers } from '@cellcloud/engine/tasks/worker-pool';
import type { GrnSlice } from './binning';
import { boostSlice } from './gbm';

/**
 * GRNBoost2-style importances of every target, slices of targets in worker threads (inputs in
 * SharedArrayBuffers). Target k is boosted with seed + k whatever thread runs it, so the result does
 * not depend on the thread count. A slice whose worker fails runs on this thread (tasks/worker-pool).
 */
export async function boostTargets(
  input: GrnSlice,
  nTargets: number,
  opts: { threads?: number; signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<Float64Array> {
  const nFeatures = input.features.nFeatures;
  const out = new Float64Array(nTargets * nFeatures);
  let done = 0;
  const tick = () => {
    done++;
    if (done % 5 === 0 || done === nTargets) opts.onProgress?.(done, nTargets);
  };
  const abort = () => {
    if (opts.signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
  };
  const threads = Math.max(1, Math.min(opts.threads ?? Math.min(availableParallelism(), 8), 16));
  const sliceSize = Math.max(1, Math.ceil(nTargets / (threads * 8)));
  const slices: [number, number][] = [];
  for (let f = 0; f < nTargets; f += sliceSize) slices.push([f, Math.min(nTargets, f + sliceSize)]);
  if (threads === 1 || nTargets < 4) {
    for (const [from, to] of slices) {
      abort();
      out.set(boostSlice(input, from, to, tick), from * nFeatures);
      await new Promise((r) => setImmediate(r));
    }
    return out;
  }
  const share = <T extends Uint8Array | Float32Array | Int32Array>(a: T): T => {
    const Ctor = a.constructor as { new (b: SharedArrayBuffer): T };
    const c = new Ctor(new SharedArrayBuffer(a.byteLength));
    (c as unknown as { set(x: ArrayLike<number>): void }).set(a);
    return c;
  };
  const shared: GrnSlice = {
    ...input,
    features: {
      ...input.features,
      bins: share(input.features.bins),
      colPtr: share(input.features.colPtr),
      entries: share(input.features.entries),
    },
    targets: share(input.targets),
    exclude: share(input.exclude),
  };
  const rest = await runSlicesOnWorkers<{ tick?: number; done?: boolean; from?: number; out?: Float64Array }>(
    {
      script: new URL('./grn-worker.ts', import.meta.url),
      workerData: { task: 'grn-boost', input: shared },
      threads,
      slices,
      signal: opts.signal,
      onMessage: (msg) => {
        if (msg.tick) tick();
        else if (msg.done && msg.out) {
          out.set(msg.out, msg.from! * nFeatures);
          return true;
        }
        return false;
      },
    },
  );
  abort();
  for (const [from, to] of rest ?? slices) out.set(boostSlice(input, from, to, tick), from * nFeatures);
  return out;
}
