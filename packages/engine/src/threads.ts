/**
 * The number of threads the engine computes on (issue 32, docs/reproducibility.md): the
 * `CELLCLOUD_ENGINE_THREADS` environment variable, 1 or 2 (default 2: the platform's machines have
 * two cores per job). Read at each call, so every place that may start a worker thread (scran.js
 * initialisation, the sparse PCA products, the kNN search, the Wilcoxon tests, the UMAP layouts)
 * follows it. Results do not depend on it: each of those splits its work the same way whatever
 * the thread count (test: packages/engine/test/reproducible.test.ts).
 */
export function engineThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.CELLCLOUD_ENGINE_THREADS);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 2) : 2;
}
