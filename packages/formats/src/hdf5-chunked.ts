/**
 * Chunked, deflated datasets of the streaming HDF5 writer (hdf5-write.ts): the deflate
 * implementation (replaceable by Node's zlib), the plan of one chunked dataset (its chunks read,
 * shuffled, deflated and recycled; its layout and filter messages), the writing of several
 * datasets' chunks interleaved with a few deflates in flight, and the version-1 B-tree chunk index.
 * Nothing here knows the object tree: the file is reached through `FileEnd` (append at the end).
 */
import { zlibSync } from 'fflate';
import { Bytes, type Message, UNDEF, utf8 } from './hdf5-encode';
import { filterPipeline, shuffleBytes } from './hdf5-filters';

/** zlib-format deflate of one chunk (HDF5's deflate filter); replaceable by a native, asynchronous one. */
export type DeflateFn = (bytes: Uint8Array, level: number) => Uint8Array | Promise<Uint8Array>;

let deflateImpl: DeflateFn = (bytes, level) => zlibSync(bytes, { level: level as 1 });

/** Install a faster deflate (node-sources installs Node's zlib, which compresses on its thread pool). */
export function setDeflateImplementation(fn: DeflateFn): void {
  deflateImpl = fn;
}

/** The end of the file being written: its current size, and appending there. */
export interface FileEnd {
  eof(): number;
  /** Reserves the bytes' place at the end of the file, starts writing them; returns their address. */
  append(bytes: Uint8Array): Promise<bigint>;
}

/** A chunked dataset being written (Hdf5Writer.plan): its chunks are compressed and appended in order. */
export interface ChunkedPlan {
  nChunks: number;
  chunkDims: number[];
  /** The chunks appended so far (offset along the first dimension, stored size, address). */
  chunks: { offset: number; size: number; address: bigint }[];
  /** Reads chunk c's elements and deflates them. */
  compress(c: number): Promise<Uint8Array>;
  /** Chunk c is appended: its buffers can be reused. */
  release(c: number): void;
  /** Writes the chunk index and completes the dataset's messages. */
  finish(): Promise<void>;
}

/** What planChunked needs of a dataset whose size and element access Hdf5Writer.plan has worked out. */
export interface ChunkedShape {
  shape: number[];
  /** Elements in all. */
  n: number;
  esize: number;
  /** Elements per row (the product of the dimensions after the first). */
  rowElements: number;
  /** Requested elements per chunk. */
  chunkElements: number;
  /** gzip level (> 0). */
  level: number;
  shuffle: boolean;
  /** Elements [start, end) as bytes. */
  get(start: number, end: number): Uint8Array;
}

const B_TREE_K = 32; // HDF5_BTREE_CHUNK_IK_DEF: superblock v2 without extension uses the default
/** Chunks being deflated at once (libuv's pool has 4 threads; more keep it busy while this thread is). */
const IN_FLIGHT = 8;

/**
 * A chunked dataset's plan: `messages` (dataspace and datatype already in) gets the layout and
 * filter pipeline messages when `finish` has written the chunk index.
 */
export function planChunked(file: FileEnd, messages: Message[], d: ChunkedShape): ChunkedPlan {
  const { shape, n, esize, rowElements, level, shuffle, get } = d;
  const rows = Math.max(1, Math.min(shape[0]!, Math.floor(d.chunkElements / Math.max(1, rowElements))));
  const chunkElems = rows * rowElements;
  const chunkDims = [rows, ...shape.slice(1)];
  const shuffled: (Uint8Array | undefined)[] = [];
  const spare: Uint8Array[] = [];
  const chunked: ChunkedPlan = {
    nChunks: Math.ceil(shape[0]! / rows),
    chunkDims,
    chunks: [],
    compress: (c) => {
      const s = c * chunkElems;
      const e = Math.min(n, s + chunkElems);
      let raw: Uint8Array = get(s, e);
      if (e - s < chunkElems) {
        const full = new Uint8Array(chunkElems * esize);
        full.set(raw);
        raw = full;
      }
      // shuffled copies are recycled once their deflate is done (no garbage per chunk)
      if (shuffle) raw = shuffled[c] = shuffleBytes(raw, esize, spare.pop() ?? new Uint8Array(raw.length));
      return Promise.resolve(deflateImpl(raw, level));
    },
    release: (c) => {
      if (shuffled[c]) spare.push(shuffled[c]!);
      shuffled[c] = undefined;
    },
    finish: async () => {
      const btree = await writeChunkIndex(file, chunked.chunks, chunkDims);
      messages.push({
        type: 0x5,
        data: new Bytes()
          .u8(3)
          .u8(0x03 | (2 << 2))
          .done(),
      });
      const layout = new Bytes()
        .u8(3)
        .u8(2)
        .u8(chunkDims.length + 1)
        .u64(btree);
      for (const dim of chunkDims) layout.u32(dim);
      layout.u32(esize);
      messages.push({ type: 0x8, data: layout.done() });
      messages.push({ type: 0xb, data: filterPipeline(level, shuffle ? esize : 0) });
    },
  };
  return chunked;
}

/**
 * Writes the chunks of several chunked datasets interleaved (chunk 0 of each in list order, then
 * chunk 1 of each, …), IN_FLIGHT deflates ahead of the appends, then each dataset's chunk index.
 */
export async function writeChunksInterleaved(file: FileEnd, chunked: ChunkedPlan[]): Promise<void> {
  const tasks: [ChunkedPlan, number][] = [];
  const most = Math.max(0, ...chunked.map((p) => p.nChunks));
  for (let c = 0; c < most; c++) for (const p of chunked) if (c < p.nChunks) tasks.push([p, c]);
  const pending: (Promise<Uint8Array> | undefined)[] = [];
  for (let t = 0; t < Math.min(IN_FLIGHT, tasks.length); t++)
    pending.push(tasks[t]![0].compress(tasks[t]![1]));
  for (let t = 0; t < tasks.length; t++) {
    const z = await pending[t]!;
    pending[t] = undefined;
    const [p, c] = tasks[t]!;
    p.release(c);
    const next = tasks[t + IN_FLIGHT];
    if (next) pending[t + IN_FLIGHT] = next[0].compress(next[1]);
    p.chunks.push({ offset: c * p.chunkDims[0]!, size: z.length, address: await file.append(z) });
  }
  for (const p of chunked) await p.finish();
}

/** Version-1 B-tree (type 1, raw data chunks) over the chunks, built bottom-up; returns the root address. */
async function writeChunkIndex(
  file: FileEnd,
  chunks: { offset: number; size: number; address: bigint }[],
  chunkDims: number[],
): Promise<bigint> {
  const rank = chunkDims.length;
  const keySize = 8 + 8 * (rank + 1);
  const nodeSize = 24 + 2 * B_TREE_K * 8 + (2 * B_TREE_K + 1) * keySize;
  const writeKey = (b: Bytes, size: number, offset: number) => {
    b.u32(size)
      .u32(0)
      .u64(offset * 1);
    for (let d = 1; d < rank; d++) b.u64(0);
    b.u64(0);
  };
  // entries of the current level: [first offset, child address, (size for leaves)]
  let level = 0;
  let entries = chunks.map((c) => ({ offset: c.offset, size: c.size, address: c.address }));
  const end = chunks.length ? chunks[chunks.length - 1]!.offset + chunkDims[0]! : 0;
  for (;;) {
    const groups: (typeof entries)[] = [];
    for (let i = 0; i < entries.length; i += 2 * B_TREE_K) groups.push(entries.slice(i, i + 2 * B_TREE_K));
    if (!groups.length) groups.push([]);
    const base = file.eof();
    const addresses = groups.map((_, i) => BigInt(base + i * nodeSize));
    const buf = new Uint8Array(groups.length * nodeSize);
    groups.forEach((g, i) => {
      const b = new Bytes().bytes(utf8.encode('TREE')).u8(1).u8(level).u16(g.length);
      b.u64(i > 0 ? addresses[i - 1]! : UNDEF).u64(i + 1 < groups.length ? addresses[i + 1]! : UNDEF);
      for (const e of g) {
        writeKey(b, level === 0 ? e.size : 0, e.offset);
        b.u64(e.address);
      }
      const next = i + 1 < groups.length ? groups[i + 1]![0]!.offset : end;
      writeKey(b, 0, next);
      const bytes = b.done();
      buf.set(bytes, i * nodeSize);
    });
    await file.append(buf);
    if (groups.length === 1) return addresses[0]!;
    entries = groups.map((g, i) => ({ offset: g[0]!.offset, size: 0, address: addresses[i]! }));
    level++;
  }
}
