import { claimChunks, engineThreads, runChunksWithWorkers } from '../threads';
import { orderedGraph } from './community-order';
import type { WeightedGraph } from './fuzzy-graph';
import { leidenOrdered } from './leiden';
import { louvainOrdered } from './louvain';

/**
 * The seeded restarts of the community detection (steps/clusters.ts) on the engine's threads
 * (issue 33): restart r (seed `seed + r`) is claimed from a shared counter by the calling thread
 * and up to engineThreads() − 1 worker threads (community-restarts-worker.ts), which read the
 * graph from shared memory and write its partition into its own row of a shared output, so the
 * partitions are the same whoever ran which restart: same result on 1, 2, 3 threads (issue 32).
 * Each thread holds the working arrays of the one restart it runs. A restart of a worker that
 * failed is redone on the calling thread; without workers the calling thread runs them all.
 * The graph they read is a copy renamed in breadth-first order (community-order.ts: fewer cache
 * misses, the same memberships bit for bit), made once for all restarts — on SharedArrayBuffers
 * when there are workers, in place of the plain shared copy this made before.
 */
export interface RestartsTask {
  /** The graph, node i renamed pos[i] (community-order.ts). */
  graph: WeightedGraph;
  pos?: Int32Array;
  algorithm: 'leiden' | 'louvain';
  resolution: number;
  /** Leiden passes per restart (unused by Louvain). */
  iterations: number;
  /** Seed of restart 0; restart r uses seed + r. */
  seed: number;
  restarts: number;
  /** restarts × nNodes memberships, restart r in row r. */
  out: Int32Array;
}

/** Runs restart r of the task into its row of `task.out`. */
export function runRestart(task: RestartsTask, r: number): void {
  const { graph, pos, resolution } = task;
  const seed = task.seed + r;
  const membership =
    task.algorithm === 'leiden'
      ? leidenOrdered({ graph, pos }, { resolution, seed, iterations: task.iterations })
      : louvainOrdered({ graph, pos }, { resolution, seed });
  task.out.set(membership, r * graph.nNodes);
}

/**
 * Restarts claimed from `control` ([next, done, then the restart + 1 each worker is on]) until
 * none is left; `slot` ≥ CHUNK_SLOTS records the one a worker is on, for its redo should it fail.
 */
export function claimRestarts(task: RestartsTask, control: Int32Array, slot?: number): number {
  return claimChunks(control, task.restarts, (r) => {
    if (slot !== undefined) Atomics.store(control, slot, r + 1);
    runRestart(task, r);
    if (slot !== undefined) Atomics.store(control, slot, 0);
  });
}

const WORKER_URL = new URL('./community-restarts-worker.ts', import.meta.url);

/**
 * The partitions of `restarts` runs (seeds seed, seed + 1, …) of `algorithm` on `graph`, in restart
 * order, computed on `threads` threads (default engineThreads()). `workerUrl` is for tests (a
 * worker that cannot load must leave the result unchanged).
 */
export async function communityRestarts(
  graph: WeightedGraph,
  opts: Omit<RestartsTask, 'graph' | 'out'> & { threads?: number; workerUrl?: URL },
): Promise<Int32Array[]> {
  const { threads = engineThreads(), workerUrl = WORKER_URL, ...rest } = opts;
  const n = graph.nNodes;
  const nWorkers = Math.max(0, Math.min(threads - 1, rest.restarts - 1));
  const ordered = orderedGraph(graph, nWorkers > 0);
  const task: RestartsTask = {
    ...rest,
    graph: ordered.graph,
    pos: ordered.pos,
    out:
      nWorkers > 0
        ? new Int32Array(new SharedArrayBuffer(rest.restarts * n * 4))
        : new Int32Array(rest.restarts * n),
  };
  // the caller's graph no longer referenced from here: its copy is the only one this call keeps alive
  graph = task.graph;
  await runChunksWithWorkers({
    url: workerUrl,
    data: { task },
    nChunks: rest.restarts,
    nWorkers,
    run: (r) => runRestart(task, r),
  });
  return Array.from({ length: rest.restarts }, (_, r) => task.out.subarray(r * n, (r + 1) * n));
}
