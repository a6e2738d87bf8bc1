import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { fuzzyConnectivities } from '../src/methods/fuzzy-graph';
import { knnExact } from '../src/methods/knn';
import { Random } from '../src/methods/random';
import { UmapLayoutJob } from '../src/stats/umap-layout';
import {
  claimChunks,
  endHelperWorker,
  engineThreads,
  helperWorkersExited,
  MAX_ENGINE_THREADS,
  newChunks,
  startHelperWorker,
  waitChunksAsync,
} from '../src/threads';

/**
 * The engine's thread knob (docs/reproducibility.md): CELLCLOUD_ENGINE_THREADS=1 keeps the work on
 * the calling thread — here the UMAP layout, which otherwise runs in a worker — with the same
 * result. (The whole pipeline on one vs two threads: reproducible.test.ts.)
 */
describe('engine threads', () => {
  const saved = process.env.CELLCLOUD_ENGINE_THREADS;
  afterEach(() => {
    if (saved === undefined) delete process.env.CELLCLOUD_ENGINE_THREADS;
    else process.env.CELLCLOUD_ENGINE_THREADS = saved;
  });

  it('reads CELLCLOUD_ENGINE_THREADS (default 2), never above the cores the process may use', () => {
    expect(engineThreads({}, 2)).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '1' }, 2)).toBe(1);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '2' }, 2)).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '8' }, 2)).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: 'zero' }, 2)).toBe(2);
    // one core: one thread whatever is asked; more cores: up to MAX_ENGINE_THREADS when asked
    expect(engineThreads({}, 1)).toBe(1);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '2' }, 1)).toBe(1);
    expect(engineThreads({}, 16)).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '4' }, 16)).toBe(4);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '64' }, 16)).toBe(MAX_ENGINE_THREADS);
  });

  it('one thread: the UMAP layout runs on the calling thread and equals the worker layout', async () => {
    const n = 300;
    const d = 5;
    const rng = new Random(3);
    const coords = Float64Array.from({ length: n * d }, (_, t) => rng.normal() + (Math.floor(t / d) % 2) * 5);
    const { indices, distances } = knnExact(coords, n, d, 10);
    const graph = fuzzyConnectivities({ runs: new Int32Array(n).fill(10), indices, distances });
    const opts = { dims: 2, minDist: 0.3, epochs: 100, seed: 42 };
    process.env.CELLCLOUD_ENGINE_THREADS = '1';
    const one = new UmapLayoutJob(graph, opts);
    const onThread = await one.result();
    expect(one.ranIn).toBe('main');
    process.env.CELLCLOUD_ENGINE_THREADS = '2';
    const two = new UmapLayoutJob(graph, opts);
    const inWorker = await two.result();
    expect(two.ranIn).toBe('worker');
    expect(Array.from(onThread)).toEqual(Array.from(inWorker));
  }, 120_000);

  it('chunks claimed from a shared counter: a stalled thread holds one chunk, the waiter sleeps', async () => {
    const n = 40;
    const control = newChunks();
    const ranBy = new Int32Array(new SharedArrayBuffer(n * 4));
    // released by this thread: the worker holds its first chunk until then, however slowly the
    // scheduler of a loaded machine runs either thread (a fixed 400 ms stall raced with it)
    const release = new Int32Array(new SharedArrayBuffer(4));
    // a worker that claims a chunk and then stalls on it (as a thread the scheduler starves),
    // the claimChunks protocol written out (an eval worker cannot import our TypeScript)
    const worker = new Worker(
      `const { workerData: { control, ranBy, n, release }, parentPort } = require('node:worker_threads');
      let first = true;
      for (let c = Atomics.add(control, 0, 1); c < n; c = Atomics.add(control, 0, 1)) {
        if (first) parentPort.postMessage(c);
        if (first) Atomics.wait(release, 0, 0, 60000);
        first = false;
        ranBy[c] = 2;
        if (Atomics.add(control, 1, 1) + 1 === n) Atomics.notify(control, 1);
      }`,
      { eval: true, workerData: { control, ranBy, n, release } },
    );
    try {
      const held = await new Promise<number>((resolve) => worker.once('message', resolve));
      const ran = claimChunks(control, n, (c) => (ranBy[c] = 1));
      // every other chunk ran here; the held one is not done yet
      expect(ran).toBe(n - 1);
      expect(ranBy[held]).toBe(0);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      setTimeout(() => {
        Atomics.store(release, 0, 1);
        Atomics.notify(release, 0);
      }, 300);
      expect(await waitChunksAsync(control, n)).toBe(true);
      const cpu = process.cpuUsage(c0);
      expect(ranBy[held]).toBe(2);
      expect(Array.from(ranBy).filter((r) => r === 1)).toHaveLength(n - 1);
      // asleep, not spinning: the wait took wall time but next to no CPU
      expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
      expect((cpu.user + cpu.system) / 1000).toBeLessThan(50);
    } finally {
      await worker.terminate();
    }
  });

  /** A kernel as a data: URL (an ES module; it cannot import our TypeScript). */
  const kernel = (source: string) => new URL(`data:text/javascript,${encodeURIComponent(source)}`);

  it('helper workers: started with workerData, ended by terminate, awaited by helperWorkersExited', async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    // works (writes what it was given), then sleeps until terminated, as a kernel waiting for blocks
    const sleeper = startHelperWorker(
      kernel(`import { workerData } from 'node:worker_threads';
        const { flag, value } = workerData;
        Atomics.store(flag, 1, value);
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        Atomics.wait(flag, 0, 1);`),
      { flag, value: 42 },
    );
    // fails at once: its 'error' is swallowed (no uncaught error), it exits all the same
    const failing = startHelperWorker(kernel(`throw new Error('kernel failed');`), {});
    expect(sleeper).toBeDefined();
    expect(failing).toBeDefined();
    const exits: string[] = [];
    sleeper!.once('exit', () => exits.push('sleeper'));
    failing!.once('exit', () => exits.push('failing'));
    expect(Atomics.wait(flag, 0, 0, 30_000)).not.toBe('timed-out');
    expect(flag[1]).toBe(42);
    endHelperWorker(failing);
    endHelperWorker(sleeper);
    // a worker that cannot start: undefined (the caller does all the work), ending it does nothing
    const none = startHelperWorker(new URL('ftp://example.org/kernel.js'), {});
    expect(none).toBeUndefined();
    endHelperWorker(none);
    await helperWorkersExited();
    expect(exits.sort()).toEqual(['failing', 'sleeper']);
  }, 60_000);
});
