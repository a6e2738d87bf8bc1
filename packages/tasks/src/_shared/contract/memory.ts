/** Shape of the stored result a memory estimate is made for. */
export interface DataShape {
  nCells: number;
  nGenes: number;
  nnz: number;
}

/**
 * A task's `memory.ts`: peak bytes of a run for the up-front budget check (the API and the worker
 * refuse runs above WORKER_MEMORY_MB). A light entry point: it imports nothing of the engine, so
 * the process that checks the budget does not load the compute (scran.js).
 */
export type EstimateMemory<P = never> = (shape: DataShape, params: P) => number;
