import { engineThreads, runChunksWithWorkers } from '../threads';
import { countMarkedNeighbors, EXACT_KNN_LIMIT } from './knn-search';
import { countMarked, mergeLists, planTiles, runTileChunk, tileChunks, type PairTiles } from './scrublet-knn';

/** Largest n·k for the pair-tiled search (its nearest lists take 12 bytes an entry and thread). */
const TILED_MAX_ENTRIES = 1 << 21;

/**
 * The count of simulated doublets (index ≥ nObs) among the k nearest neighbours of every point of
 * each simulation's manifold (the observed cells' coordinates first, the same in every simulation):
 * knn-search countMarkedNeighbors (exact up to EXACT_KNN_LIMIT points, inverted lists above), its
 * exact search done pair by pair (scrublet-knn.ts: the same neighbours, so the same counts). Each
 * pair is measured once, and the pairs of two observed cells once for all the simulations: their
 * nearest lists among the observed cells start each simulation's lists. Tiles of pairs are claimed
 * by all threads, each thread keeping its own lists, merged at the end, so the counts do not depend
 * on the thread count.
 */
export function doubletNeighbors(
  n: number,
  d: number,
  k: number,
  nObs: number,
): (manifold: Float32Array, seed: number) => Promise<Int32Array> {
  if (n > EXACT_KNN_LIMIT || n * k > TILED_MAX_ENTRIES || k >= n)
    return (manifold, seed) => countMarkedNeighbors(manifold, n, d, k, nObs, { seed });
  let observed: PairTiles | undefined;
  return async (manifold) => {
    if (!observed) observed = await measurePairs(manifold, nObs, d, k, 0);
    const run = await measurePairs(manifold, n, d, k, nObs, (s) => {
      s.heapD.set(observed!.heapD.subarray(0, nObs * k));
      s.heapI.set(observed!.heapI.subarray(0, nObs * k));
      s.top.set(observed!.top.subarray(0, nObs));
      s.topIndex.set(observed!.topIndex.subarray(0, nObs));
    });
    return countMarked(run, nObs);
  };
}

/**
 * The first n points of `coords`: the pairs (i < j, j ≥ split) offered to nearest lists of k
 * (thread 0's lists first set by `start`), on all threads, the lists then merged into thread 0's.
 */
async function measurePairs(
  coords: Float32Array,
  n: number,
  d: number,
  k: number,
  split: number,
  start?: (s: PairTiles) => void,
): Promise<PairTiles> {
  const shared = <T>(Kind: new (b: SharedArrayBuffer) => T, length: number, bytes: number): T =>
    new Kind(new SharedArrayBuffer(length * bytes));
  const plan = planTiles(n, split);
  const nChunks = tileChunks(plan);
  const nWorkers = Math.max(0, Math.min(engineThreads() - 1, nChunks - 1));
  const lists = 1 + nWorkers;
  const x = shared(Float64Array, n * d, 8);
  const norms = shared(Float64Array, n, 8);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) {
      x[i * d + j] = coords[i * d + j];
      s += x[i * d + j] * x[i * d + j];
    }
    norms[i] = s;
  }
  const tiles: PairTiles = {
    n,
    d,
    k,
    x,
    norms,
    heapD: shared(Float64Array, lists * n * k, 8).fill(Infinity),
    heapI: shared(Int32Array, lists * n * k, 4).fill(-1),
    top: shared(Float64Array, lists * n, 8).fill(Infinity),
    topIndex: shared(Int32Array, lists * n, 4).fill(-1),
    ...plan,
  };
  start?.(tiles);
  await runChunksWithWorkers({
    url: new URL('./scrublet-knn.ts', import.meta.url),
    data: { task: 'scrublet-tiles', tiles },
    nChunks,
    nWorkers,
    run: (c) => runTileChunk(tiles, 0, c),
  });
  mergeLists(tiles, lists);
  return tiles;
}
