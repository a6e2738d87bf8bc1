import type { Metadata } from 'h5wasm';
import { FormatError } from './errors';
import {
  isDataset,
  isGroup,
  type RandomAccessSource,
  shapeOf,
  strings,
  withH5,
  withH5Source,
  type H5Dataset,
  type H5Group,
} from './h5-io';
import {
  type AttrValue,
  type ElementArray,
  encodeStrings,
  type DatasetNode,
  type GroupNode,
  Hdf5Writer,
  type NumericKind,
  type PositionalSink,
} from './hdf5-write';
import type { CellColumn } from './matrix';
import { writeH5adColumn, writeH5adUns, type UnsValue } from './write-h5ad';

/**
 * Copies an .h5ad written by our writer (analysis.h5ad) element by element into a positional sink
 * with per-cell columns added to (or replacing columns of) `obs` — the download of a result with
 * the annotation levels saved after the analysis (issue 13). Everything else (X, layers, var,
 * obsm, uns, every attribute) is copied as stored; 1-D numeric datasets are read and written one
 * chunk at a time, so memory stays at the stored bytes plus a few chunks.
 *
 * Supported element types are those of hdf5-write.ts: integers, floats, the h5py boolean enum and
 * strings; anything else (compound, references) is refused with `h5.bad_field`.
 */
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
const H5T_STRING = 3;
const H5T_ENUM = 8;
const CHUNK = 262144;
const LEVEL = 4;

function numericKind(m: Metadata): NumericKind | undefined {
  if (m.type === H5T_ENUM && m.size === 1) return 'bool';
  if (m.type === H5T_FLOAT) return m.size === 4 ? 'f32' : m.size === 8 ? 'f64' : undefined;
  if (m.type !== H5T_INTEGER) return undefined;
  const signed: Record<number, NumericKind> = { 1: 'i8', 2: 'i16', 4: 'i32', 8: 'i64' };
  const unsigned: Record<number, NumericKind> = { 1: 'u8', 4: 'u32' };
  return (m.signed ? signed : unsigned)[m.size];
}

const unsupported = (file: string, field: string, m: Metadata) =>
  new FormatError('h5.bad_field', {
    file,
    field,
    detail: `cannot copy HDF5 type class ${m.type} (size ${m.size})`,
  });

/** Typed array of the writer's kind (booleans as bytes) from an h5wasm value (array or scalar). */
function asElements(v: unknown, kind: NumericKind): ElementArray {
  if (ArrayBuffer.isView(v)) {
    if (kind === 'bool' || kind === 'u8') return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return v as ElementArray;
  }
  const x = typeof v === 'boolean' ? Number(v) : (v as number | bigint);
  const of: Record<NumericKind, (x: number | bigint) => ArrayBufferView> = {
    f32: (x) => Float32Array.of(Number(x)),
    f64: (x) => Float64Array.of(Number(x)),
    i8: (x) => Int8Array.of(Number(x)),
    i16: (x) => Int16Array.of(Number(x)),
    i32: (x) => Int32Array.of(Number(x)),
    i64: (x) => BigInt64Array.of(BigInt(x)),
    u8: (x) => Uint8Array.of(Number(x)),
    u32: (x) => Uint32Array.of(Number(x)),
    bool: (x) => Uint8Array.of(Number(x) ? 1 : 0),
  };
  return of[kind](x) as ElementArray;
}

/** An attribute as stored: strings by value, numbers and booleans with their exact type and shape. */
function attrValue(v: unknown, m: Metadata, file: string, field: string): AttrValue {
  if (m.type === H5T_STRING) return Array.isArray(v) ? v.map(String) : String(v);
  const kind = numericKind(m);
  if (!kind) throw unsupported(file, field, m);
  const e = asElements(v, kind);
  return {
    dtype: { kind },
    shape: m.shape && m.shape.length ? m.shape : null,
    raw: new Uint8Array(e.buffer, e.byteOffset, e.byteLength).slice(),
  };
}

function copyAttrs(
  h5: Hdf5Writer,
  from: H5Group | H5Dataset,
  to: GroupNode | DatasetNode,
  file: string,
  skip?: string,
): void {
  for (const [name, a] of Object.entries(from.attrs))
    if (name !== skip) h5.attr(to, name, attrValue(a.value, a.metadata, file, `${from.path}@${name}`));
}

async function copyDataset(h5: Hdf5Writer, parent: GroupNode, name: string, d: H5Dataset, file: string) {
  const m = d.metadata;
  const shape = m.shape && m.shape.length ? shapeOf(d) : null;
  let node;
  if (m.type === H5T_STRING) {
    const { dtype, raw } = encodeStrings(strings(d, file));
    node = await h5.dataset(parent, name, { dtype, shape, data: raw });
  } else {
    const kind = numericKind(m);
    if (!kind) throw unsupported(file, d.path, m);
    const n = shape ? shape.reduce((a, b) => a * b, 1) : 1;
    // elements per first-dimension row: the writer asks for whole chunks of rows (or everything)
    const row = shape && shape.length > 1 ? n / Math.max(1, shape[0]!) : 1;
    const sliced = !!shape && shape.length <= 2 && n > CHUNK && row > 0;
    node = await h5.dataset(parent, name, {
      dtype: { kind },
      shape,
      data: sliced
        ? (s: number, e: number) => asElements(d.slice([[Math.floor(s / row), Math.ceil(e / row)]]), kind)
        : asElements(d.value, kind),
      ...(shape ? { compression: LEVEL, chunkElements: CHUNK } : {}),
    });
  }
  copyAttrs(h5, d, node, file);
}

async function copyGroup(
  h5: Hdf5Writer,
  from: H5Group,
  to: GroupNode,
  file: string,
  obs: Record<string, CellColumn>,
  uns: Record<string, UnsValue> = {},
): Promise<void> {
  const isObs = from.path === '/obs';
  const isUns = from.path === '/uns';
  copyAttrs(h5, from, to, file, isObs ? 'column-order' : undefined);
  for (const name of from.keys()) {
    if ((isObs && name in obs) || (isUns && name in uns)) continue; // replaced below
    const e = from.get(name);
    if (isGroup(e)) await copyGroup(h5, e, h5.group(to, name), file, obs, uns);
    else if (isDataset(e)) await copyDataset(h5, to, name, e, file);
  }
  if (isUns) for (const [k, v] of Object.entries(uns)) await writeH5adUns(h5, to, k, v);
  if (!isObs) return;
  const stored = from.attrs['column-order']?.value;
  const order = Array.isArray(stored) ? stored.map(String) : typeof stored === 'string' ? [stored] : [];
  order.push(...Object.keys(obs).filter((k) => !order.includes(k)));
  h5.attr(to, 'column-order', order.length ? order : new Float64Array(0));
  for (const [k, col] of Object.entries(obs))
    await writeH5adColumn(h5, to, k, col, { compression: LEVEL, blockElements: CHUNK });
}

/**
 * Writes an .h5ad — its bytes, or a random-access source read range by range — to `sink` with
 * `obs` columns (and `uns` elements) added or replaced; returns the file size.
 */
export async function writeH5adWithObs(
  input: Uint8Array | RandomAccessSource,
  obs: Record<string, CellColumn>,
  sink: PositionalSink,
  file = 'analysis.h5ad',
  /** elements added to (or replacing elements of) `uns`, e.g. the provenance of curated levels */
  uns: Record<string, UnsValue> = {},
): Promise<number> {
  const open = <T>(fn: (f: H5Group) => Promise<T>) =>
    input instanceof Uint8Array ? withH5(input, file, fn) : withH5Source(input, file, fn);
  return open(async (f) => {
    const obsGroup = f.get('obs');
    if (!isGroup(obsGroup)) throw new FormatError('h5.missing_field', { file, field: '/obs' });
    const index = obsGroup.attrs['_index']?.value;
    const idx = obsGroup.get(typeof index === 'string' ? index : '_index');
    const nCells = isDataset(idx) ? shapeOf(idx)[0]! : -1;
    for (const [k, c] of Object.entries(obs))
      if (c.values.length !== nCells)
        throw new FormatError('write.invalid_input', {
          file,
          detail: `obs column "${k}" has ${c.values.length} values for ${nCells} cells`,
        });
    const h5 = new Hdf5Writer(sink);
    await copyGroup(h5, f, h5.root, file, obs, uns);
    if (Object.keys(uns).length && !isGroup(f.get('uns'))) {
      const g = h5.group(h5.root, 'uns');
      h5.attr(g, 'encoding-type', 'dict');
      h5.attr(g, 'encoding-version', '0.1.0');
      for (const [k, v] of Object.entries(uns)) await writeH5adUns(h5, g, k, v);
    }
    return h5.close();
  });
}
