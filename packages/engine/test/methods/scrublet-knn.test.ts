import { describe, expect, it } from 'vitest';
import { countMarkedNeighbors } from '../../src/methods/knn-search';
import { Random } from '../../src/methods/random';
import { doubletNeighbors } from '../../src/methods/scrublet-neighbors';

/**
 * Scrublet's pair-by-pair exact search (methods/scrublet-knn.ts, via scrublet-neighbors.ts doubletNeighbors)
 * against the brute force it replaces (knn-search countMarkedNeighbors): the same count of marked
 * neighbours for every point, on coordinates with many tied distances (small integers), for
 * several simulations sharing the observed points, on one thread and on two.
 */
describe('Scrublet neighbour counts measured pair by pair', () => {
  it('equal the brute force for every point, ties included, whatever the thread count', async () => {
    const rng = new Random(17);
    const [nObs, nSim, d, k] = [300, 450, 6, 12];
    const n = nObs + nSim;
    const observed = Float32Array.from({ length: nObs * d }, () => Math.floor(rng.uniform() * 4));
    const counts = doubletNeighbors(n, d, k, nObs);
    const before = process.env.CELLCLOUD_ENGINE_THREADS;
    for (let sim = 0; sim < 3; sim++) {
      process.env.CELLCLOUD_ENGINE_THREADS = sim === 1 ? '1' : '2';
      const manifold = new Float32Array(n * d);
      manifold.set(observed);
      for (let t = nObs * d; t < n * d; t++)
        manifold[t] = Math.floor(rng.uniform() * 4) + (sim === 2 ? 0.5 : 0);
      const brute = await countMarkedNeighbors(manifold, n, d, k, nObs, { threads: 1 });
      const tiled = await counts(manifold, sim);
      expect(Array.from(tiled)).toEqual(Array.from(brute));
      expect(tiled.some((c) => c > 0) && tiled.some((c) => c < k)).toBe(true);
    }
    if (before === undefined) delete process.env.CELLCLOUD_ENGINE_THREADS;
    else process.env.CELLCLOUD_ENGINE_THREADS = before;
  }, 120_000);
});
