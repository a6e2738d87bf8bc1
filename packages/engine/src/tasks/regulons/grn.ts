import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { TaskError } from '../errors';
import { boostSlice, type GrnSlice } from './gbm';

/**
 * GRNBoost2-style importances of every target, slices of targets in worker threads (inputs in
 * SharedArrayBuffers). Target k is boosted with seed + k whatever thread runs it, so the result does
 * not depend on the thread count. A slice whose worker fails runs on this thread.
 */
export async function boostTargets(
  input: GrnSlice,
  nTargets: number,
  opts: { threads?: number; signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
): Promise<Float64Array> {
  const out = new Float64Array(nTargets * input.nFeatures);
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
      out.set(boostSlice(input, from, to, tick), from * input.nFeatures);
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
    bins: share(input.bins),
    targets: share(input.targets),
    exclude: share(input.exclude),
  };
  const workers: Worker[] = [];
  try {
    for (let w = 0; w < Math.min(threads, slices.length); w++) {
      workers.push(
        new Worker(new URL('./gbm.ts', import.meta.url), {
          workerData: { task: 'grn-boost', input: shared },
        }),
      );
    }
  } catch {
    for (const w of workers) await w.terminate();
    return boostTargets(input, nTargets, { ...opts, threads: 1 });
  }
  let next = 0;
  const failed: [number, number][] = [];
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            let current: [number, number] | undefined;
            const give = () => {
              if (opts.signal?.aborted || next >= slices.length) {
                current = undefined;
                resolve();
                return;
              }
              current = slices[next++]!;
              w.postMessage({ from: current[0], to: current[1] });
            };
            w.on('message', (msg: { tick?: number; done?: boolean; from?: number; out?: Float64Array }) => {
              if (msg.tick) tick();
              else if (msg.done && msg.out) {
                out.set(msg.out, msg.from! * input.nFeatures);
                give();
              }
            });
            const fail = () => {
              if (current) failed.push(current);
              current = undefined;
              resolve();
            };
            w.once('error', fail);
            w.once('exit', fail);
            give();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  abort();
  for (const [from, to] of [...failed, ...slices.slice(next)])
    out.set(boostSlice(input, from, to, tick), from * input.nFeatures);
  return out;
}
