// Minimal typings for the parts of scran.js 4.1 (WebAssembly libscran) the engine uses.
// scran.js ships no TypeScript declarations; these follow its JSDoc (node_modules/scran.js/main).
declare module 'scran.js' {
  type Numeric = ArrayLike<number>;
  interface Freeable {
    free(): void;
  }
  export interface ScranMatrix extends Freeable {
    numberOfRows(): number;
    numberOfColumns(): number;
  }
  export interface RunPcaResults extends Freeable {
    principalComponents(): Float64Array;
    varianceExplained(): Float64Array;
    totalVariance(): number;
    numberOfPCs(): number;
    numberOfCells(): number;
  }
  export interface NeighborIndex extends Freeable {
    numberOfCells(): number;
  }
  export interface NeighborResults extends Freeable {
    numberOfCells(): number;
    serialize(): { runs: Int32Array; indices: Int32Array; distances: Float64Array };
  }
  export type SnnGraph = Freeable & { readonly __snn?: never };
  export interface ClusterResults extends Freeable {
    membership(): Int32Array;
  }
  export function initialize(options?: { numberOfThreads?: number }): Promise<boolean>;
  export function heapSize(): number;
  export function initializeSparseMatrixFromSparseArrays(
    nRows: number,
    nCols: number,
    values: Numeric,
    indices: Numeric,
    pointers: Numeric,
    options?: { byRow?: boolean; forceInteger?: boolean; layered?: boolean },
  ): ScranMatrix;
  export function initializeDenseMatrixFromDenseArray(
    nRows: number,
    nCols: number,
    values: Numeric,
    options?: { columnMajor?: boolean; forceInteger?: boolean },
  ): ScranMatrix;
  export function runPca(
    x: ScranMatrix,
    options?: {
      features?: Uint8Array | null;
      numberOfPCs?: number;
      scale?: boolean;
      numberOfThreads?: number;
    },
  ): RunPcaResults;
  export function buildNeighborSearchIndex(
    x: Float64Array,
    options: { numberOfDims: number; numberOfCells: number; approximate?: boolean },
  ): NeighborIndex;
  export function findNearestNeighbors(
    index: NeighborIndex,
    k: number,
    options?: { numberOfThreads?: number },
  ): NeighborResults;
  export function buildSnnGraph(
    x: NeighborIndex | NeighborResults,
    options?: { scheme?: 'rank' | 'number' | 'jaccard'; neighbors?: number; numberOfThreads?: number },
  ): SnnGraph;
  export function clusterGraph(
    x: SnnGraph,
    options?: {
      method?: 'multilevel' | 'leiden' | 'walktrap';
      multiLevelResolution?: number;
      leidenResolution?: number;
      leidenObjective?: 'cpm' | 'modularity';
    },
  ): ClusterResults;
  export function runUmap(
    x: NeighborIndex | NeighborResults,
    options?: { neighbors?: number; epochs?: number; minDist?: number; numberOfThreads?: number },
  ): { x: Float64Array; y: Float64Array };
  export function runTsne(
    x: NeighborIndex | NeighborResults,
    options?: { perplexity?: number; neighbors?: number; maxIterations?: number; numberOfThreads?: number },
  ): { x: Float64Array; y: Float64Array };
  export function perplexityToNeighbors(perplexity: number): number;
}
