/**
 * Byte sources: how readers get bytes without touching the file system or the network.
 * Entry points (server storage, CLI, tests) build them; `node-sources.ts` is the Node adapter.
 */
export interface ByteSource {
  /** Path of the file inside its bundle (POSIX separators), e.g. "filtered/matrix.mtx.gz". */
  name: string;
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The whole content as consecutive chunks. */
  stream(): AsyncIterable<Uint8Array>;
}

/** A set of named sources: one uploaded file, a folder, or an unpacked archive. */
export interface SourceBundle {
  /** Display name (upload or folder name); used for messages and sample names. */
  name: string;
  entries: ByteSource[];
}

const CHUNK = 1 << 20;

export function bytesSource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    async *stream() {
      for (let off = 0; off < bytes.length; off += CHUNK)
        yield bytes.subarray(off, Math.min(bytes.length, off + CHUNK));
    },
  };
}

export function bundleOf(name: string, entries: ByteSource[]): SourceBundle {
  return { name, entries };
}

/** A sample name from an upload or folder name: "pbmc.tar.gz" → "pbmc". */
export function sampleName(name: string): string {
  const base = baseName(name.replace(/\/+$/, ''));
  return base.replace(/\.(zip|tar|tgz|tar\.gz|h5ad|h5|loom|mtx|tsv|csv|txt)(\.gz)?$/i, '') || base;
}

/** Base name of a bundle path ("a/b/matrix.mtx.gz" → "matrix.mtx.gz"). */
export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Directory part of a bundle path ("a/b/matrix.mtx.gz" → "a/b", "x" → ""). */
export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Entries directly inside `dir` of the bundle, re-rooted so their names are base names. */
export function subBundle(bundle: SourceBundle, dir: string): SourceBundle {
  const entries = bundle.entries
    .filter((e) => dirName(e.name) === dir)
    .map((e) => renamed(e, baseName(e.name)));
  return { name: dir ? `${bundle.name}/${dir}` : bundle.name, entries };
}

/** The same bytes under another name. */
export function renamed(source: ByteSource, name: string): ByteSource {
  return { name, size: source.size, read: (o, l) => source.read(o, l), stream: () => source.stream() };
}

export async function readAll(source: ByteSource): Promise<Uint8Array> {
  if (source.size >= 0 && source.size < 2 ** 31) return source.read(0, source.size);
  return concatChunks(await collect(source.stream()));
}

export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

export function concatChunks(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

export * from './limits';
