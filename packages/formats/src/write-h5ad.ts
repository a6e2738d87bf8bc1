import type { File as H5File, Group as H5Group } from 'h5wasm';
import { makeUnique } from './csc';
import { FormatError } from './errors';
import { loadH5wasm } from './h5-io';
import type { CellColumn, CountMatrix, GeneTable } from './matrix';

/**
 * AnnData .h5ad writer following the anndata on-disk specification (encoding-type /
 * encoding-version on every element), as anndata ≥ 0.8 writes it. X is the normalized matrix when
 * given (scanpy convention) and layers["counts"] the raw counts; both CSR cells × genes.
 *
 * Limitation: h5wasm cannot create HDF5 enum (bool) types, so boolean columns (e.g.
 * highly_variable) are written as uint8 0/1 — use `.astype(bool)` in Python before masking with
 * them — and the categorical `ordered` attribute is uint8 0: anndata ≥ 0.9 reads it (it applies
 * bool()); anndata 0.8 rejects it. Verified with h5py and anndata in test/write-h5ad.test.ts.
 */
export type UnsValue = string | number | boolean | string[] | number[] | Float64Array | Float32Array | Int32Array | { [key: string]: UnsValue };

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
  /** 1-D arrays longer than this are written in blocks of this many values (WebAssembly heap use). */
  blockElements?: number;
}

let counter = 0;
const CHUNK = 262144;
const BLOCK = 1 << 22;
type NumericArray = Float64Array | Float32Array | Int32Array | Int8Array | Int16Array | Uint8Array | BigInt64Array;

class Writer {
  constructor(
    private readonly level: number,
    private readonly block: number,
  ) {}

  enc(obj: Pick<H5Group, 'create_attribute'>, type: string, version: string): void {
    obj.create_attribute('encoding-type', type, null, 'S');
    obj.create_attribute('encoding-version', version, null, 'S');
  }

  group(parent: H5Group, name: string, type = 'dict', version = '0.1.0'): H5Group {
    const g = parent.create_group(name);
    this.enc(g, type, version);
    return g;
  }

  numeric(parent: H5Group, name: string, data: NumericArray, shape?: number[], encoded = true): void {
    const n = data.length;
    const twoD = shape && shape.length === 2;
    const chunks = twoD ? [Math.max(1, Math.min(shape[0]!, Math.floor(CHUNK / Math.max(1, shape[1]!)))), shape[1]!] : [Math.max(1, Math.min(n, CHUNK))];
    const compress = this.level > 0 && n > 1024 ? { compression: this.level } : {};
    let d;
    if (!twoD && n > this.block) {
      // Large 1-D arrays go in blocks so the WebAssembly heap never holds the whole array.
      const b = this.block;
      d = parent.create_dataset({ name, data: data.subarray(0, b), shape: [b], maxshape: [null], chunks: [Math.min(chunks[0]!, b)], ...compress });
      d.resize([n]);
      for (let off = b; off < n; off += b) d.write_slice([[off, Math.min(n, off + b)]], data.subarray(off, Math.min(n, off + b)));
    } else {
      d = parent.create_dataset({ name, data, ...(shape ? { shape } : {}), ...(n > 1024 ? { chunks, ...compress } : {}) });
    }
    if (encoded) this.enc(d, 'array', '0.2.0');
  }

  strings(parent: H5Group, name: string, values: string[]): void {
    const d = parent.create_dataset({ name, data: values.length ? values : [''], dtype: 'S', ...(values.length ? {} : { shape: [0] }) });
    this.enc(d, 'string-array', '0.2.0');
  }

  csr(parent: H5Group, name: string, m: CountMatrix): void {
    const g = this.group(parent, name, 'csr_matrix', '0.1.0');
    g.create_attribute('shape', new Int32Array([m.nCells, m.nGenes]));
    const nnz = m.indptr[m.nCells]!;
    const ptr = nnz < 2 ** 31 ? Int32Array.from(m.indptr) : BigInt64Array.from(m.indptr, (x) => BigInt(x));
    this.numeric(g, 'data', m.data.subarray(0, nnz), undefined, false);
    this.numeric(g, 'indices', new Int32Array(m.indices.buffer, m.indices.byteOffset, nnz), undefined, false);
    this.numeric(g, 'indptr', ptr, undefined, false);
  }

  categorical(parent: H5Group, name: string, values: string[]): void {
    const cats = [...new Set(values)];
    if (cats.every((c) => c !== '' && !Number.isNaN(Number(c)))) cats.sort((a, b) => Number(a) - Number(b));
    else cats.sort();
    const pos = new Map(cats.map((c, i) => [c, i]));
    const g = this.group(parent, name, 'categorical', '0.2.0');
    g.create_attribute('ordered', new Uint8Array([0]), [], '<B');
    this.strings(g, 'categories', cats);
    const codes = cats.length < 128 ? new Int8Array(values.length) : cats.length < 32768 ? new Int16Array(values.length) : new Int32Array(values.length);
    values.forEach((v, i) => (codes[i] = pos.get(v)!));
    this.numeric(g, 'codes', codes);
  }

  column(parent: H5Group, name: string, col: CellColumn | VarColumn): void {
    if (col.kind === 'categorical') this.categorical(parent, name, col.values);
    else if (col.kind === 'string') this.strings(parent, name, col.values);
    else if (col.kind === 'boolean') this.numeric(parent, name, Uint8Array.from(col.values as ArrayLike<number>, (v) => (v ? 1 : 0)));
    else this.numeric(parent, name, col.values);
  }

  dataframe(parent: H5Group, name: string, index: string[], indexName: string, columns: Record<string, CellColumn | VarColumn>): void {
    const g = this.group(parent, name, 'dataframe', '0.2.0');
    g.create_attribute('_index', indexName, null, 'S');
    const keys = Object.keys(columns);
    if (keys.length) g.create_attribute('column-order', keys, null, 'S');
    else g.create_attribute('column-order', new Float64Array(0), [0], '<d');
    this.strings(g, indexName, index);
    for (const k of keys) this.column(g, k, columns[k]!);
  }

  uns(parent: H5Group, name: string, v: UnsValue): void {
    if (typeof v === 'string') {
      const d = parent.create_dataset({ name, data: v, shape: [], dtype: 'S' });
      this.enc(d, 'string', '0.2.0');
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      const d = parent.create_dataset({ name, data: new Float64Array([Number(v)]), shape: [] });
      this.enc(d, 'numeric-scalar', '0.2.0');
    } else if (Array.isArray(v)) {
      if (v.every((x) => typeof x === 'string')) this.strings(parent, name, v as string[]);
      else this.numeric(parent, name, Float64Array.from(v as number[]));
    } else if (ArrayBuffer.isView(v)) {
      this.numeric(parent, name, v);
    } else {
      const g = this.group(parent, name);
      for (const [k, x] of Object.entries(v)) this.uns(g, k, x);
    }
  }
}

function validate(input: H5adInput): void {
  const { counts, genes, barcodes } = input;
  const bad = (detail: string) => new FormatError('write.invalid_input', { file: 'h5ad', detail });
  if (genes.ids.length !== counts.nGenes) throw bad(`${genes.ids.length} gene ids for ${counts.nGenes} genes`);
  if (barcodes.length !== counts.nCells) throw bad(`${barcodes.length} barcodes for ${counts.nCells} cells`);
  const n = input.normalized;
  if (n && (n.nCells !== counts.nCells || n.nGenes !== counts.nGenes)) throw bad('the normalized matrix has another shape than counts');
  for (const [k, c] of Object.entries(input.obs ?? {})) if (c.values.length !== counts.nCells) throw bad(`obs column "${k}" has ${c.values.length} values for ${counts.nCells} cells`);
  for (const [k, c] of Object.entries(input.var ?? {})) if (c.values.length !== counts.nGenes) throw bad(`var column "${k}" has ${c.values.length} values for ${counts.nGenes} genes`);
  for (const [k, e] of Object.entries(input.obsm ?? {})) if (e.values.length !== e.dims * counts.nCells) throw bad(`obsm "${k}" is not ${counts.nCells} × ${e.dims}`);
}

/** Write the dataset as .h5ad bytes. */
export async function writeH5ad(input: H5adInput): Promise<Uint8Array> {
  validate(input);
  const { h5, FS } = await loadH5wasm();
  const path = `/cellcloud-write-${counter++}-${Math.random().toString(36).slice(2, 8)}.h5ad`;
  const w = new Writer(input.compression ?? 4, Math.max(1, input.blockElements ?? BLOCK));
  const f: H5File = new h5.File(path, 'w');
  try {
    w.enc(f, 'anndata', '0.1.0');
    w.csr(f, 'X', input.normalized ?? input.counts);
    const layers = w.group(f, 'layers');
    if (input.normalized) w.csr(layers, 'counts', input.counts);
    w.dataframe(f, 'obs', makeUnique(input.barcodes).names, '_index', input.obs ?? {});
    const varCols: Record<string, VarColumn> = { gene_ids: { kind: 'string', values: input.genes.ids }, gene_symbols: { kind: 'string', values: input.genes.symbols } };
    if (input.genes.featureTypes) varCols['feature_types'] = { kind: 'categorical', values: input.genes.featureTypes };
    w.dataframe(f, 'var', makeUnique(input.genes.symbols).names, '_index', { ...varCols, ...(input.var ?? {}) });
    const obsm = w.group(f, 'obsm');
    for (const [k, e] of Object.entries(input.obsm ?? {})) w.numeric(obsm, k, e.values, [input.counts.nCells, e.dims]);
    for (const name of ['obsp', 'varm', 'varp']) w.group(f, name);
    const uns = w.group(f, 'uns');
    for (const [k, v] of Object.entries(input.uns ?? {})) w.uns(uns, k, v);
  } finally {
    f.close();
  }
  try {
    return FS.readFile(path);
  } finally {
    FS.unlink(path);
  }
}
