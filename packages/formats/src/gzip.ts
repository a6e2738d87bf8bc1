import { Gunzip } from 'fflate';
import { FormatError } from './errors';
import { limitDecompressed } from './limits';
import { type ByteSource, concatChunks } from './sources';

/** True when the bytes start with the gzip magic number. */
export function isGzipMagic(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export async function isGzipSource(source: ByteSource): Promise<boolean> {
  return source.size >= 2 && isGzipMagic(await source.read(0, 2));
}

export function gzipCorrupt(file: string, e: unknown): FormatError {
  const detail = e instanceof Error ? e.message : String(e);
  return new FormatError('gzip.corrupt', { file, detail });
}

/** A streaming gunzip: compressed chunks in, decompressed chunks out; FormatError gzip.corrupt on bad data. */
export type GunzipStream = (chunks: AsyncIterable<Uint8Array>, file: string) => AsyncIterable<Uint8Array>;

let gunzipImpl: GunzipStream = fflateGunzipChunks;

/**
 * Replace the pure-JS (fflate) gunzip by a faster one; `node-sources` installs Node's native zlib
 * (about 4× faster) when it is imported. Browsers keep fflate.
 */
export function setGunzipImplementation(impl: GunzipStream): void {
  gunzipImpl = impl;
}

/** Decompress a gzip chunk stream (concatenated members allowed) into decompressed chunks. */
export function gunzipChunks(chunks: AsyncIterable<Uint8Array>, file: string): AsyncIterable<Uint8Array> {
  return gunzipImpl(chunks, file);
}

/** The pure-JS gunzip (fflate), used unless another implementation is installed. */
export async function* fflateGunzipChunks(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
): AsyncIterable<Uint8Array> {
  let out: Uint8Array[] = [];
  let ended = false;
  const g = new Gunzip((data, final) => {
    if (data.length) out.push(data);
    if (final) ended = true;
  });
  let sawInput = false;
  for await (const chunk of chunks) {
    sawInput = true;
    try {
      g.push(chunk, false);
    } catch (e) {
      throw gzipCorrupt(file, e);
    }
    if (out.length) {
      const ready = out;
      out = [];
      yield* ready;
    }
  }
  try {
    g.push(new Uint8Array(0), true);
  } catch (e) {
    throw gzipCorrupt(file, e);
  }
  if (!sawInput || !ended) throw gzipCorrupt(file, new Error('unexpected end of data'));
  yield* out;
}

/** The content of a source, transparently gunzipped when it starts with the gzip magic. */
export async function* contentChunks(source: ByteSource): AsyncIterable<Uint8Array> {
  // Counted against the decompression limits (limits.ts): a bomb stops early with a format error.
  if (await isGzipSource(source))
    yield* limitDecompressed(gunzipChunks(source.stream(), source.name), source.name, source.size);
  else yield* source.stream();
}

/** The whole (decompressed) content of a source in one buffer. */
export async function readContent(source: ByteSource): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of contentChunks(source)) parts.push(c);
  return concatChunks(parts.length ? parts : [new Uint8Array(0)]);
}

/** The whole content decoded as UTF-8 text (for small files: barcodes, features, metadata). */
export async function readText(source: ByteSource): Promise<string> {
  return new TextDecoder('utf-8').decode(await readContent(source));
}
