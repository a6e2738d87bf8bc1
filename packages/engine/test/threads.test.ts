import { afterEach, describe, expect, it } from 'vitest';
import { fuzzyConnectivities } from '../src/methods/fuzzy-graph';
import { knnExact } from '../src/methods/knn';
import { Random } from '../src/methods/random';
import { UmapLayoutJob } from '../src/stats/umap-layout';
import { engineThreads } from '../src/threads';

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

  it('reads CELLCLOUD_ENGINE_THREADS: 1 or 2, default 2', () => {
    expect(engineThreads({})).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '1' })).toBe(1);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '2' })).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: '8' })).toBe(2);
    expect(engineThreads({ CELLCLOUD_ENGINE_THREADS: 'zero' })).toBe(2);
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
});
