import { makeUnique } from './csc';
import { FormatError } from './errors';
import {
  type DatasetNode,
  type ElementArray,
  encodeStrings,
  type GroupNode,
  Hdf5Writer,
  kindOf,
  MemorySink,
  type NumericKind,
  type PositionalSink,
} from './hdf5-write';
import type { CellColumn, CountMatrix, GeneTable } from './matrix';

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
 */
export type UnsValue =
  | string
  | number
  | boolean
  | string[]
  | number[]
  | Float64Array
  | Float32Array
  | Int32Array
  | { [key: string]: UnsValue };

export type VarColumn =
  | { kind: 'numeric'; values: Float64Array | Float32Array }
  | { kind: 'boolean'; values: ArrayLike<boolean | number> }
  | { kind: 'categorical'; values: string[] }
  | { kind: 'string'; values: string[] };

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
 * A CSR matrix (cells × genes) read in element ranges, for writers that stream it without holding
 * it (issue 33: the out-of-core engine's cell chunks). The writer reads `data` and `indices` each
 * in increasing, consecutive ranges — one after the other, or (layers/counts beside X, csrPair)
 * alternating: a range of the counts' indices, then the same range of their data — then
 * `indptr()` once.
 */
export interface CsrRanges {
  nCells: number;
  nGenes: number;
  /** Stored values. */
  nnz: number;
  data(start: number, end: number): Float32Array;
  indices(start: number, end: number): Int32Array;
  /** The nCells + 1 offsets, asked for once the values and indices are read. */
  indptr(): Float64Array;
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

type Parent = GroupNode;

/** An in-memory matrix as CsrRanges (views, no copy). */
function rangesOf(m: CountMatrix): CsrRanges {
  return {
    nCells: m.nCells,
    nGenes: m.nGenes,
    nnz: m.indptr[m.nCells]!,
    data: (s, e) => m.data.subarray(s, e),
    indices: (s, e) => new Int32Array(m.indices.buffer, m.indices.byteOffset + 4 * s, e - s),
    indptr: () => m.indptr,
  };
}

/** AnnData element writers over the streaming HDF5 writer. */
class AnnWriter {
  constructor(
    readonly h5: Hdf5Writer,
    private readonly level: number,
    private readonly chunk: number,
  ) {}

  enc(node: GroupNode | DatasetNode, type: string, version: string): void {
    this.h5.attr(node, 'encoding-type', type);
    this.h5.attr(node, 'encoding-version', version);
  }

  group(parent: Parent, name: string, type = 'dict', version = '0.1.0'): GroupNode {
    const g = this.h5.group(parent, name);
    this.enc(g, type, version);
    return g;
  }

  async numeric(
    parent: Parent,
    name: string,
    data: ElementArray | ((s: number, e: number) => ElementArray),
    opts: { kind?: NumericKind; shape?: number[]; encoded?: boolean } = {},
  ): Promise<DatasetNode> {
    return (await this.numerics([{ parent, name, data, opts }]))[0]!;
  }

  /** Numeric arrays written together (Hdf5Writer.datasets: their chunks interleaved). */
  async numerics(
    list: {
      parent: Parent;
      name: string;
      data: ElementArray | ((s: number, e: number) => ElementArray);
      opts?: { kind?: NumericKind; shape?: number[]; encoded?: boolean };
    }[],
  ): Promise<DatasetNode[]> {
    const nodes = await this.h5.datasets(
      list.map(({ parent, name, data, opts = {} }) => {
        const kind = opts.kind ?? kindOf(data as ElementArray);
        return {
          parent,
          name,
          opts: {
            dtype: { kind },
            shape: opts.shape ?? [(data as ElementArray).length],
            data,
            compression: this.level,
            chunkElements: this.chunk,
            // integers (sparse indices, pointers, codes): byte-shuffled, ~1.6× smaller and faster to deflate
            shuffle: kind !== 'f32' && kind !== 'f64',
          },
        };
      }),
    );
    list.forEach(({ opts = {} }, i) => {
      if (opts.encoded ?? true) this.enc(nodes[i]!, 'array', '0.2.0');
    });
    return nodes;
  }

  async strings(parent: Parent, name: string, values: string[]): Promise<void> {
    const { dtype, raw } = encodeStrings(values);
    const d = await this.h5.dataset(parent, name, { dtype, shape: [values.length], data: raw });
    this.enc(d, 'string-array', '0.2.0');
  }

  /** A CSR matrix group (data, indices, indptr); csrPair writes two that share their layout. */
  async csr(parent: Parent, name: string, m: CsrRanges): Promise<void> {
    const g = this.group(parent, name, 'csr_matrix', '0.1.0');
    this.h5.attr(g, 'shape', BigInt64Array.from([BigInt(m.nCells), BigInt(m.nGenes)]));
    const shape = [m.nnz];
    await this.numeric(g, 'data', m.data, { kind: 'f32', shape, encoded: false });
    await this.numeric(g, 'indices', m.indices, { kind: 'i32', shape, encoded: false });
    await this.indptr(g, m);
  }

  /** A CSR matrix's indptr (int64 from 2³¹ non-zeros), asked of `m` once its data and indices are read. */
  private async indptr(g: GroupNode, m: CsrRanges): Promise<DatasetNode> {
    const wide = m.nnz >= 2 ** 31;
    let offsets: Float64Array | undefined;
    const ptr = (s: number, e: number) => {
      offsets ??= m.indptr();
      return wide
        ? BigInt64Array.from(offsets.subarray(s, e), (x) => BigInt(x))
        : Int32Array.from(offsets.subarray(s, e));
    };
    return this.numeric(g, 'indptr', ptr, {
      kind: wide ? 'i64' : 'i32',
      shape: [m.nCells + 1],
      encoded: false,
    });
  }

  /**
   * X (`x`, e.g. the normalized values) and layers/counts (`counts`) of one sparsity layout:
   * X's data, X's indices and the counts' data written together, chunk by chunk (the counts'
   * indices and data are read in one pass over their source: the streamed path decodes each
   * cell chunk of the counts once for both), then X's indptr; the counts' indices and indptr are
   * hard links to X's.
   */
  async csrPair(parent: Parent, layers: Parent, x: CsrRanges, counts: CsrRanges): Promise<void> {
    const gx = this.group(parent, 'X', 'csr_matrix', '0.1.0');
    const gc = this.group(layers, 'counts', 'csr_matrix', '0.1.0');
    for (const g of [gx, gc])
      this.h5.attr(g, 'shape', BigInt64Array.from([BigInt(x.nCells), BigInt(x.nGenes)]));
    const shape = [x.nnz];
    const [, indices] = await this.numerics([
      { parent: gx, name: 'data', data: x.data, opts: { kind: 'f32', shape, encoded: false } },
      { parent: gx, name: 'indices', data: counts.indices, opts: { kind: 'i32', shape, encoded: false } },
      { parent: gc, name: 'data', data: counts.data, opts: { kind: 'f32', shape, encoded: false } },
    ]);
    const indptr = await this.indptr(gx, x);
    this.h5.link(gc, 'indices', indices!);
    this.h5.link(gc, 'indptr', indptr);
  }

  async categorical(parent: Parent, name: string, values: string[]): Promise<void> {
    const cats = [...new Set(values)];
    if (cats.every((c) => c !== '' && !Number.isNaN(Number(c)))) cats.sort((a, b) => Number(a) - Number(b));
    else cats.sort();
    const pos = new Map(cats.map((c, i) => [c, i]));
    const g = this.group(parent, name, 'categorical', '0.2.0');
    this.h5.attr(g, 'ordered', false);
    await this.strings(g, 'categories', cats);
    const codes =
      cats.length < 128
        ? new Int8Array(values.length)
        : cats.length < 32768
          ? new Int16Array(values.length)
          : new Int32Array(values.length);
    values.forEach((v, i) => (codes[i] = pos.get(v)!));
    await this.numeric(g, 'codes', codes);
  }

  async column(parent: Parent, name: string, col: CellColumn | VarColumn): Promise<void> {
    if (col.kind === 'categorical') await this.categorical(parent, name, col.values);
    else if (col.kind === 'string') await this.strings(parent, name, col.values);
    else if (col.kind === 'boolean')
      await this.numeric(
        parent,
        name,
        Uint8Array.from(col.values as ArrayLike<number>, (v) => (v ? 1 : 0)),
        { kind: 'bool' },
      );
    else await this.numeric(parent, name, col.values);
  }

  async dataframe(
    parent: Parent,
    name: string,
    index: string[],
    indexName: string,
    columns: Record<string, CellColumn | VarColumn>,
  ): Promise<void> {
    const g = this.group(parent, name, 'dataframe', '0.2.0');
    this.h5.attr(g, '_index', indexName);
    const keys = Object.keys(columns);
    this.h5.attr(g, 'column-order', keys.length ? keys : new Float64Array(0));
    await this.strings(g, indexName, index);
    for (const k of keys) await this.column(g, k, columns[k]!);
  }

  async uns(parent: Parent, name: string, v: UnsValue): Promise<void> {
    if (typeof v === 'string') {
      const { dtype, raw } = encodeStrings([v]);
      const d = await this.h5.dataset(parent, name, { dtype, shape: null, data: raw });
      this.enc(d, 'string', '0.2.0');
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      const d = await this.h5.dataset(parent, name, {
        dtype: { kind: typeof v === 'boolean' ? 'bool' : 'f64' },
        shape: null,
        data: typeof v === 'boolean' ? new Uint8Array([v ? 1 : 0]) : new Float64Array([v]),
      });
      this.enc(d, 'numeric-scalar', '0.2.0');
    } else if (Array.isArray(v)) {
      if (v.every((x) => typeof x === 'string')) await this.strings(parent, name, v as string[]);
      else await this.numeric(parent, name, Float64Array.from(v as number[]));
    } else if (ArrayBuffer.isView(v)) {
      await this.numeric(parent, name, v);
    } else {
      const g = this.group(parent, name);
      for (const [k, x] of Object.entries(v)) await this.uns(g, k, x);
    }
  }
}

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
  if (normalized && linked) {
    await w.csrPair(f, w.group(f, 'layers'), normalized, counts);
    return finishLater(w, f, matrices);
  }
  await w.csr(f, 'X', normalized ?? counts);
  const layers = w.group(f, 'layers');
  if (normalized) await w.csr(layers, 'counts', counts);
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
