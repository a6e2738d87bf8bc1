import { describe, expect, it } from 'vitest';
import { communityRestarts } from '../../src/methods/community-restarts';
import { leiden } from '../../src/methods/leiden';
import { louvain } from '../../src/methods/louvain';
import { plantedPartition } from './graph-fixtures';

// noisy communities: restarts with different seeds give different partitions
const { graph } = plantedPartition(8, 40, 0.25, 0.04, 11);
const restarts = 7;

/** The restarts as clusters.ts ran them before issue 33: one after another on this thread. */
function sequential(algorithm: 'leiden' | 'louvain'): Int32Array[] {
  return Array.from({ length: restarts }, (_, r) =>
    algorithm === 'leiden'
      ? leiden(graph, { resolution: 1, seed: 3 + r, iterations: 5 })
      : louvain(graph, { resolution: 1, seed: 3 + r }),
  );
}

const opts = { resolution: 1, iterations: 5, seed: 3, restarts };

describe('communityRestarts', () => {
  it.each(['leiden', 'louvain'] as const)(
    '%s: the sequential partitions on 1, 2 and 3 threads',
    async (algorithm) => {
      const expected = sequential(algorithm);
      // the seeds matter: not every restart finds the same partition
      expect(new Set(expected.map((p) => p.join())).size).toBeGreaterThan(1);
      for (const threads of [1, 2, 3]) {
        const runs = await communityRestarts(graph, { ...opts, algorithm, threads });
        expect(runs.map((p) => Array.from(p))).toEqual(expected.map((p) => Array.from(p)));
      }
    },
    60_000,
  );

  it('redoes on the calling thread what a worker that fails to load leaves', async () => {
    const runs = await communityRestarts(graph, {
      ...opts,
      algorithm: 'leiden',
      threads: 3,
      workerUrl: new URL('./no-such-worker.ts', import.meta.url),
    });
    expect(runs.map((p) => Array.from(p))).toEqual(sequential('leiden').map((p) => Array.from(p)));
  });
});
