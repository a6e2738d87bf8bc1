import { makeUnique } from './csc';
import { FormatError } from './errors';
import { type CsrRanges, rangesOf, writeMatrices } from './h5ad-write-csr';
import { AnnWriter, type UnsValue, type VarColumn } from './h5ad-write-elements';
import { type GroupNode, Hdf5Writer, MemorySink, type PositionalSink } from './hdf5-write';
import type { CellColumn, CountMatrix, GeneTable } from './matrix';

export type { CsrRanges } from './h5ad-write-csr';
export type { UnsValue, VarColumn } from './h5ad-write-elements';

/**
 * AnnData .h5ad writer following the anndata on-disk specification (encoding-type /
 * encoding-version on every element), as anndata ≥ 0.8 writes it. X is the normalized matrix when
 * given (scanpy convention) and layers["counts"] the raw counts; both CSR cells × genes.
 *
 * Written by our own streaming HDF5 writer (hdf5-write.ts): booleans are HDF5 enums as h5py
 * writes them (numpy bool in Python; `a[:, a.var.highly_variable]` selects the HVGs) and the
 * categorical `ordered` attribute is such a boolean, so anndata 0.8 (Debian's python3-anndata) and
 * later open the files with no shim. Strings are fixed-length UTF-8. Verified with h5py and anndata
 * in test/write-h5ad.test.ts.
 *
 * This file holds the entry points (writeH5ad, writeH5adTo, beginH5ad, beginH5adRanges) and the
 * input checks; the element writers are in h5ad-write-elements.ts, X and layers/counts in
 * h5ad-write-csr.ts.
 */
export interface H5adInput {
  counts: CountMatrix;
  genes: GeneTable;
  barcodes: string[];
  /** Log-normalized values with the same sparsity layout as counts; becomes X when present. */
  normalized?: CountMatrix;
  obs?: Record<string, CellColumn | VarColumn>;
  var?: Record<string, VarColumn>;
  /** Row-major nCells × dims (e.g. X_pca, X_umap). */
  obsm?: Record<string, { dims: number; values: Float32Array }>;
  uns?: Record<string, UnsValue>;
  /** gzip level 0–9 for numeric arrays (0 = none). Default 4. */
  compression?: number;
  /** Elements per compressed chunk (default 262,144); small values exercise multi-node chunk indexes in tests. */
  blockElements?: number;
}

/**
 * beginH5ad's input with the matrices read in ranges. `normalized`, when present, has the layout
 * of `counts` (the same indices and indptr): layers/counts links to X's, as beginH5ad writes them.
 */
export type H5adRangesInput = Omit<H5adInput, 'counts' | 'normalized'> & {
  counts: CsrRanges;
  normalized?: CsrRanges;
};

const CHUNK = 262144;

/** One uns element (string, number, boolean, array or nested dict) into an open writer's group. */
export async function writeH5adUns(
  h5: Hdf5Writer,
  parent: GroupNode,
  name: string,
  v: UnsValue,
): Promise<void> {
  await new AnnWriter(h5, 4, CHUNK).uns(parent, name, v);
}

/** One obs/var column element (categorical, string, boolean or numeric) into an open writer's group. */
export async function writeH5adColumn(
  h5: Hdf5Writer,
  parent: GroupNode,
  name: string,
  col: CellColumn | VarColumn,
  opts: { compression?: number; blockElements?: number } = {},
): Promise<void> {
  await new AnnWriter(h5, opts.compression ?? 4, Math.max(1, opts.blockElements ?? CHUNK)).column(
    parent,
    name,
    col,
  );
}

/** The matrices' shapes are all validate reads of them. */
type Shaped = { nCells: number; nGenes: number };

function validate(
  input: Omit<H5adInput, 'counts' | 'normalized'> & { counts: Shaped; normalized?: Shaped },
): void {
  const { counts, genes, barcodes } = input;
  const bad = (detail: string) => new FormatError('write.invalid_input', { file: 'h5ad', detail });
  if (genes.ids.length !== counts.nGenes)
    throw bad(`${genes.ids.length} gene ids for ${counts.nGenes} genes`);
  if (barcodes.length !== counts.nCells) throw bad(`${barcodes.length} barcodes for ${counts.nCells} cells`);
  const n = input.normalized;
  if (n && (n.nCells !== counts.nCells || n.nGenes !== counts.nGenes))
    throw bad('the normalized matrix has another shape than counts');
  for (const [k, c] of Object.entries(input.obs ?? {}))
    if (c.values.length !== counts.nCells)
      throw bad(`obs column "${k}" has ${c.values.length} values for ${counts.nCells} cells`);
  for (const [k, c] of Object.entries(input.var ?? {}))
    if (c.values.length !== counts.nGenes)
      throw bad(`var column "${k}" has ${c.values.length} values for ${counts.nGenes} genes`);
  for (const [k, e] of Object.entries(input.obsm ?? {}))
    if (e.values.length !== e.dims * counts.nCells)
      throw bad(`obsm "${k}" is not ${counts.nCells} × ${e.dims}`);
}

/**
 * Streams the dataset as .h5ad into a positional sink (a file): compressed chunks are written as
 * they are produced, so memory stays at the input plus a few chunks. Returns the file size.
 */
export async function writeH5adTo(input: H5adInput, sink: PositionalSink): Promise<number> {
  validate(input);
  const file = await beginH5ad(input, sink);
  return file.finish(input);
}

/** The parts of an .h5ad written by `H5adInProgress.finish`. */
export type H5adRest = Pick<H5adInput, 'obs' | 'var' | 'obsm' | 'uns'>;

/** An .h5ad whose matrices are written; `finish` adds obs, var, obsm and uns and closes it. */
export interface H5adInProgress {
  finish(rest: H5adRest): Promise<number>;
}

/**
 * writeH5adTo in two parts: the matrices (X, layers) now — e.g. while the embeddings compute,
 * or before per-cell annotations are added — and the small elements (obs, var, obsm, uns) with
 * `finish`. The input's obs, var, obsm and uns are not read here.
 */
export async function beginH5ad(input: H5adInput, sink: PositionalSink): Promise<H5adInProgress> {
  const { counts, normalized } = input;
  const linked = normalized?.indices === counts.indices && normalized?.indptr === counts.indptr;
  return beginMatrices(input, sink, rangesOf(counts), normalized && rangesOf(normalized), linked);
}

/**
 * beginH5ad with the matrices read in element ranges (H5adRangesInput): the same file, byte for
 * byte, as beginH5ad of the same matrices (normalized and counts sharing their layout), written
 * without holding them.
 */
export async function beginH5adRanges(input: H5adRangesInput, sink: PositionalSink): Promise<H5adInProgress> {
  return beginMatrices(input, sink, input.counts, input.normalized, true);
}

/** X (normalized, else counts) and layers/counts, its indices and indptr linked to X's when `linked`. */
async function beginMatrices(
  input: Omit<H5adInput, 'counts' | 'normalized'>,
  sink: PositionalSink,
  counts: CsrRanges,
  normalized: CsrRanges | undefined,
  linked: boolean,
): Promise<H5adInProgress> {
  const matrices = { counts, normalized, genes: input.genes, barcodes: input.barcodes };
  validate(matrices);
  const h5 = new Hdf5Writer(sink);
  const w = new AnnWriter(h5, input.compression ?? 4, Math.max(1, input.blockElements ?? CHUNK));
  const f = h5.root;
  w.enc(f, 'anndata', '0.1.0');
  await writeMatrices(w, f, counts, normalized, linked);
  return finishLater(w, f, matrices);
}

/** The rest of beginH5ad's file: obs, var, obsm, uns, then the file is closed. */
function finishLater(
  w: AnnWriter,
  f: GroupNode,
  matrices: Pick<H5adInput, 'genes' | 'barcodes'> & { counts: Shaped; normalized?: Shaped },
): H5adInProgress {
  const input = matrices;
  return {
    async finish(rest) {
      validate({ ...matrices, ...rest });
      await w.dataframe(f, 'obs', makeUnique(input.barcodes).names, '_index', rest.obs ?? {});
      const varCols: Record<string, VarColumn> = {
        gene_ids: { kind: 'string', values: input.genes.ids },
        gene_symbols: { kind: 'string', values: input.genes.symbols },
      };
      if (input.genes.featureTypes)
        varCols['feature_types'] = { kind: 'categorical', values: input.genes.featureTypes };
      await w.dataframe(f, 'var', makeUnique(input.genes.symbols).names, '_index', {
        ...varCols,
        ...(rest.var ?? {}),
      });
      const obsm = w.group(f, 'obsm');
      for (const [k, e] of Object.entries(rest.obsm ?? {}))
        await w.numeric(obsm, k, e.values, { shape: [input.counts.nCells, e.dims] });
      for (const name of ['obsp', 'varm', 'varp']) w.group(f, name);
      const uns = w.group(f, 'uns');
      for (const [k, v] of Object.entries(rest.uns ?? {})) await w.uns(uns, k, v);
      return w.h5.close();
    },
  };
}

/** Write the dataset as .h5ad bytes (in memory; large results should stream with writeH5adTo). */
export async function writeH5ad(input: H5adInput): Promise<Uint8Array> {
  const sink = new MemorySink();
  await writeH5adTo(input, sink);
  return sink.bytes();
}
