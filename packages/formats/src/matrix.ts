import type { ValueKind } from '@cellcloud/contracts/files';

/**
 * The canonical in-memory dataset every reader returns and every writer/engine step consumes.
 *
 * Contract:
 *  - Counts are a sparse genes × cells matrix stored column-compressed BY CELL (CSC with cells as
 *    columns): the counts of cell j are `data[indptr[j] .. indptr[j+1])` at gene rows `indices[…]`.
 *    Gene indices inside one cell are strictly increasing. Values are non-negative counts
 *    (integers for UMI data; readers may accept non-integer counts only when they say so in
 *    `warnings`).
 *  - `indptr` is a Float64Array so that more than 2^32 non-zeros stay addressable.
 *  - Gene ids are unique (readers make them unique as scanpy's `var_names_make_unique` does);
 *    `symbols` are display names (may repeat). When a file has no Ensembl ids, ids = symbols.
 *  - Cell barcodes are unique within one sample.
 *  - Immutable by convention: steps produce new matrices rather than editing one in place.
 */
export interface CountMatrix extends CsrMatrix {
  indices: Uint32Array; // length nnz, gene row of each value
}

/**
 * CountMatrix's layout with gene indices of either width: a matrix of at most 65,536 genes (the
 * HVG submatrix a PCA reads, issue 33) may hold them in 2 bytes instead of 4. Only code that reads
 * the indices (never writes a file or grows the matrix) takes this type.
 */
export interface CsrMatrix {
  nGenes: number;
  nCells: number;
  indptr: Float64Array; // length nCells + 1
  indices: Uint32Array | Uint16Array; // length nnz, gene row of each value
  data: Float32Array; // length nnz
}

export interface GeneTable {
  ids: string[];
  symbols: string[];
  /** e.g. "Gene Expression"; absent when the file has none. */
  featureTypes?: string[];
}

export type CellColumn =
  { kind: 'categorical'; values: string[] } | { kind: 'numeric'; values: Float64Array };

export interface CellTable {
  barcodes: string[];
  /** Cell metadata read from the file (h5ad obs, CeleScope metadata, …), keyed by column name. */
  columns: Record<string, CellColumn>;
}

export type SourceFormat = '10x-mtx' | '10x-h5' | 'dense-text' | 'h5ad' | 'celescope';

export interface Dataset {
  counts: CountMatrix;
  genes: GeneTable;
  cells: CellTable;
  /** Embeddings found in the input (h5ad obsm), row-major nCells × dims. */
  embeddings: Record<string, { dims: number; values: Float32Array }>;
  format: SourceFormat;
  /** Human-readable notes the reader wants the user to see (e.g. "read cells × genes, transposed"). */
  warnings: string[];
  /** True when non-integer values (TPM, expected counts) were accepted (readDataset sets it). */
  nonInteger?: boolean;
  /** What the values are: integer counts, non-integer counts (TPM, expected counts) or log-normalized (readDataset sets it). */
  valueKind?: ValueKind;
  /** Per-sample summary metrics found beside the matrix (CeleScope `.metrics.json`), as read. */
  sampleMetrics?: Record<string, unknown>;
}
