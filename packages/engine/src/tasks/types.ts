import type { ProgressEvent } from '@cellcloud/contracts/jobs';
import type { TaskTable } from '@cellcloud/contracts/tasks/csv';
import type { CellColumn, CountMatrix } from '@cellcloud/formats/matrix';

/**
 * The engine side of the task shape (issue 11). A task is pure compute:
 * `run({ result, params, onProgress, signal, sink, resources })` reads the analysis through the
 * read-only `ResultHandle`, writes every output through the injected `TaskSink`, and returns its
 * summary (validated against the contract's `summary` schema by the caller). No database, no fs.
 */

/** Read-only view of one analysis result (analysis.h5ad + per-cell columns added since). */
export interface ResultHandle {
  readonly nCells: number;
  readonly nGenes: number;
  /** Cell barcodes as stored in the result (sample-prefixed when several samples were merged). */
  readonly barcodes: readonly string[];
  readonly genes: { readonly ids: readonly string[]; readonly symbols: readonly string[] };
  /** Species of the analysis ('human', 'mouse', … as the manifest says; 'unknown' when not detected). */
  readonly species: string;
  /** Raw counts, genes × cells, CSC by cell (formats' CountMatrix contract). */
  counts(): CountMatrix;
  /** log1p(counts / total · 1e4), same sparsity as counts (computed once, cached). */
  normalized(): CountMatrix;
  /** Annotation levels and numeric per-cell values: obs of the h5ad, subsets, earlier tasks' columns. */
  obsKeys(): { key: string; kind: 'categorical' | 'numeric' }[];
  obs(key: string): CellColumn | undefined;
  /** Embeddings (umap, tsne, umap3D, pca, spatial, …), row-major nCells × dims. */
  embeddingNames(): string[];
  embedding(name: string): { dims: number; values: Float32Array } | undefined;
  /** Index of a gene by Ensembl id or symbol (case-sensitive first, then case-insensitive); -1 when absent. */
  geneIndex(name: string): number;
  /**
   * What the analysis recorded of its reduced representation (the result's qc.json: `nPcsUsed`,
   * `batchCorrection`, and its `seed`), when known: the representation its neighbours and layouts used is the
   * first `nPcsUsed` columns of obsm X_pca, or of X_pca_<batchCorrection>.
   */
  readonly analysis?: AnalysisRecord;
}

/** The analysis' own record of the representation its graph and layouts used (qc.json). */
export interface AnalysisRecord {
  nPcsUsed?: number;
  batchCorrection?: string;
  /** The analysis' random seed (results written before it was recorded have none). */
  seed?: number;
}

/** Result tables (`tables/<name>.csv`): the shape and codec are defined with the output format. */
export type { TableValue, TaskTable } from '@cellcloud/contracts/tasks/csv';

/** Where a task writes its outputs (the CLI writes files under --out; the worker writes to storage). */
export interface TaskSink {
  /** tables/<name>.csv with exactly these column names (document them in the task's README). */
  table(name: string, table: TaskTable): Promise<void>;
  /** A per-cell column for the explorer (obs/<key>.*): categorical labels or numeric values. */
  cellColumn(key: string, column: CellColumn): Promise<void>;
  /** data/<name> — figure data (JSON value or raw bytes). */
  data(name: string, value: unknown | Uint8Array): Promise<void>;
}

/** Reads runtime reference resources (CellPhoneDB, gene sets, positions, …) by relative path. */
export interface ResourceReader {
  /** Root-relative path, e.g. 'cellphonedb_v5/interaction_input.csv'. Rejects when missing. */
  readBytes(path: string): Promise<Uint8Array>;
  readText(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  /** Lists a folder's entries (file and folder names). */
  list(path: string): Promise<string[]>;
}

/** A task's progress: the contracts ProgressEvent (fraction 0–1, step) without the message. */
export type TaskProgress = Pick<ProgressEvent, 'fraction' | 'step'>;

/** Outputs of an earlier task that this one depends on (e.g. enrich reads deg-groups' tables). */
export interface SourceTask {
  name: string;
  summary: unknown;
  readTable(name: string): Promise<TaskTable>;
  readData(name: string): Promise<Uint8Array>;
}

export interface TaskRunContext<P> {
  result: ResultHandle;
  params: P;
  onProgress: (p: TaskProgress) => void;
  signal?: AbortSignal;
  sink: TaskSink;
  resources: ResourceReader;
  /** Present when the definition declares `dependsOn` and the params name a source task. */
  source?: SourceTask;
  /** User-uploaded files of this run (gene set csv, GMT, contigs…), by the params' file field name. */
  uploads?: Record<string, Uint8Array>;
}

export interface EngineTask<P = unknown, S = unknown> {
  name: string;
  run(ctx: TaskRunContext<P>): Promise<S>;
  /** Peak bytes for the up-front budget check (the worker refuses jobs above WORKER_MEMORY_MB). */
  estimateMemoryBytes(shape: { nCells: number; nGenes: number; nnz: number }, params: P): number;
}
