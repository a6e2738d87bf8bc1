import type { Dataset as H5Dataset, File as H5File, Group as H5Group } from 'h5wasm';
import { FormatError } from './errors';

/** Thin helpers over h5wasm: open bytes in its in-memory file system, typed reads. */
export type { H5Dataset, H5File, H5Group };

type H5Api = (typeof import('h5wasm'))['default'];
let api: H5Api | undefined;

/**
 * The h5wasm module, loaded on first use so that importing this package (e.g. for its error codes)
 * does not instantiate the HDF5 WebAssembly module.
 */
export async function loadH5wasm(): Promise<{ h5: H5Api; FS: NonNullable<Awaited<H5Api['ready']>['FS']> }> {
  api ??= (await import('h5wasm')).default;
  const M = await api.ready;
  return { h5: api, FS: M.FS };
}

let counter = 0;

/**
 * Synchronous random access to a file's bytes — what HDF5 reads need (h5wasm's reads are
 * synchronous): a local file handle (node-sources `fileRandomAccess`). Only the ranges HDF5 asks
 * for are read, so a file opened this way is never held in memory.
 */
export interface RandomAccessSource {
  size: number;
  /** Fills `into` from `position` on; returns the bytes read (fewer only at the end). */
  readInto(into: Uint8Array, position: number): number;
}

/** Open the HDF5 bytes, run `fn`, then close and free the in-memory copy. */
export async function withH5<T>(
  bytes: Uint8Array,
  file: string,
  fn: (f: H5File) => T | Promise<T>,
): Promise<T> {
  if (!isH5Magic(bytes.subarray(0, 8)))
    throw new FormatError('h5.open_failed', { file, detail: 'the HDF5 signature is missing' });
  const { FS } = await loadH5wasm();
  const path = `/cellcloud-read-${uniqueId()}-${counter++}.h5`;
  // canOwn: MEMFS keeps a reference to the bytes instead of copying them (the file is opened read-only).
  FS.writeFile(path, bytes, { canOwn: true } as { flags?: string });
  return openAt(path, file, fn);
}

/**
 * Like `withH5`, over a random-access source: the file is a node of h5wasm's file system whose
 * reads call `source.readInto` for the range HDF5 asks for (as Emscripten's lazy files do), so
 * memory holds HDF5's caches and the values read, not the file.
 */
export async function withH5Source<T>(
  source: RandomAccessSource,
  file: string,
  fn: (f: H5File) => T | Promise<T>,
): Promise<T> {
  const head = new Uint8Array(8);
  if (source.readInto(head, 0) < 8 || !isH5Magic(head))
    throw new FormatError('h5.open_failed', { file, detail: 'the HDF5 signature is missing' });
  const { FS } = await loadH5wasm();
  const name = `cellcloud-source-${uniqueId()}-${counter++}.h5`;
  type FsNode = { usedBytes: number; stream_ops: Record<string, unknown> };
  const fs = FS as unknown as { createFile(p: string, n: string, o: object, r: boolean, w: boolean): FsNode };
  const node = fs.createFile('/', name, {}, true, false);
  Object.defineProperty(node, 'usedBytes', { get: () => source.size });
  node.stream_ops = {
    ...node.stream_ops,
    read: (_s: unknown, heap: Int8Array, offset: number, length: number, position: number) => {
      const n = Math.max(0, Math.min(length, source.size - position));
      return n ? source.readInto(new Uint8Array(heap.buffer, heap.byteOffset + offset, n), position) : 0;
    },
  };
  return openAt(`/${name}`, file, fn);
}

async function openAt<T>(path: string, file: string, fn: (f: H5File) => T | Promise<T>): Promise<T> {
  const { h5, FS } = await loadH5wasm();
  let f: H5File;
  try {
    f = new h5.File(path, 'r');
  } catch (e) {
    FS.unlink(path);
    const mapped = asH5FormatError(e, file);
    if (mapped.code === 'data.too_large') throw mapped;
    throw new FormatError('h5.damaged', {
      file,
      detail: e instanceof Error ? e.message.slice(0, 200) : String(e),
    });
  }
  try {
    return await fn(f);
  } catch (e) {
    throw asH5FormatError(e, file);
  } finally {
    try {
      f.close();
    } catch {
      // a damaged file may fail to close; its bytes are freed below either way
    }
    FS.unlink(path);
  }
}

/**
 * Any failure while reading an HDF5 file is about the file: a reader's FormatError stays as it
 * is; an allocation failure (a declared size too large for the memory) becomes `data.too_large`;
 * anything else (h5wasm/WebAssembly errors of a truncated, garbage or bit-flipped file such as
 * "memory access out of bounds") becomes `h5.damaged`.
 */
export function asH5FormatError(e: unknown, file: string): FormatError {
  if (e instanceof FormatError) return e;
  const detail = (e instanceof Error ? e.message : String(e)).slice(0, 200);
  const allocation =
    (e instanceof RangeError && !/out of bounds|offset/i.test(detail)) ||
    /allocation failed|out of memory|cannot enlarge memory|\bOOM\b|invalid (typed )?array length/i.test(
      detail,
    );
  return allocation
    ? new FormatError('data.too_large', { file, detail })
    : new FormatError('h5.damaged', { file, detail });
}

function uniqueId(): string {
  return Math.random().toString(36).slice(2, 8);
}

export function isH5Magic(head: Uint8Array): boolean {
  const sig = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];
  return head.length >= 8 && sig.every((b, i) => head[i] === b);
}

export function isGroup(e: unknown): e is H5Group {
  return !!api && e instanceof api.Group;
}

export function isDataset(e: unknown): e is H5Dataset {
  return !!api && e instanceof api.Dataset;
}

export function child(g: H5Group, name: string): H5Group | H5Dataset | undefined {
  if (!g.keys().includes(name)) return undefined;
  const e = g.get(name);
  return isGroup(e) || isDataset(e) ? e : undefined;
}

export function groupAt(g: H5Group, name: string): H5Group | undefined {
  const e = child(g, name);
  return isGroup(e) ? e : undefined;
}

export function datasetAt(g: H5Group, name: string): H5Dataset | undefined {
  const e = child(g, name);
  return isDataset(e) ? e : undefined;
}

export function requireDataset(g: H5Group, name: string, file: string): H5Dataset {
  const d = datasetAt(g, name);
  if (!d)
    throw new FormatError('h5.missing_field', { file, field: `${g.path === '/' ? '' : g.path}/${name}` });
  return d;
}

/** A string attribute (h5py writes them as str or bytes), or undefined. */
export function attrString(obj: H5Group | H5Dataset, name: string): string | undefined {
  if (!(name in obj.attrs)) return undefined;
  const v = obj.attrs[name]!.value;
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

export function attrJson(obj: H5Group | H5Dataset, name: string): unknown {
  return name in obj.attrs ? obj.attrs[name]!.json_value : undefined;
}

type NumArray =
  Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** Numeric dataset values; 64-bit integers are converted to a Float64Array. */
export function numbers(d: H5Dataset, file: string): NumArray {
  const v = d.value;
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
    const out = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) out[k] = Number(v[k]!);
    return out;
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return v as NumArray;
  if (typeof v === 'number') return new Float64Array([v]);
  if (typeof v === 'boolean') return new Uint8Array([v ? 1 : 0]);
  throw new FormatError('h5.bad_field', {
    file,
    field: d.path,
    detail: `expected numbers, found ${JSON.stringify(d.dtype)}`,
  });
}

/** String dataset values (fixed-length or variable-length; padding removed). */
export function strings(d: H5Dataset, file: string): string[] {
  const v = d.value;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x.replace(/\0+$/, '') : String(x)));
  throw new FormatError('h5.bad_field', {
    file,
    field: d.path,
    detail: `expected strings, found ${JSON.stringify(d.dtype)}`,
  });
}

/** Dataset shape as numbers (scalars → []). */
export function shapeOf(d: H5Dataset): number[] {
  return (d.shape ?? []).map(Number);
}
