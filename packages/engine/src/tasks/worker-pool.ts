import { Worker } from 'node:worker_threads';

/**
 * A small pool of worker threads working through slices [from, to) of one job. Each worker gets
 * `workerData` once, then one `{ from, to }` message per slice; it answers with any number of
 * progress messages and one message that ends the slice (`onMessage` returns true for it), and
 * is handed the next slice until none is left or `signal` is aborted.
 *
 * Returns the slices that were not done by a worker — those of a worker that died (error or exit)
 * and any not handed out — for the caller to run on its own thread, or `null` when the workers
 * could not be started at all (the caller then runs everything on its own thread).
 * Every worker is terminated before this returns.
 */
export async function runSlicesOnWorkers<M>(opts: {
  script: URL;
  workerData: unknown;
  threads: number;
  slices: readonly (readonly [number, number])[];
  signal?: AbortSignal;
  /** A worker's message; true when it ends the worker's current slice. */
  onMessage: (msg: M) => boolean;
}): Promise<[number, number][] | null> {
  const { slices } = opts;
  const workers: Worker[] = [];
  try {
    for (let w = 0; w < Math.min(opts.threads, slices.length); w++) {
      workers.push(new Worker(opts.script, { workerData: opts.workerData }));
    }
  } catch {
    for (const w of workers) await w.terminate();
    return null;
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
              const [from, to] = slices[next++]!;
              current = [from, to];
              w.postMessage({ from, to });
            };
            w.on('message', (msg: M) => {
              if (opts.onMessage(msg)) give();
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
  return [...failed, ...slices.slice(next).map(([from, to]): [number, number] => [from, to])];
}
