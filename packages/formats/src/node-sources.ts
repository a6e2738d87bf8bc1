/**
 * The one Node adapter: file-system backed byte sources. For entry points only (server storage,
 * CLI, tests); readers never import this file.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { createGunzip, deflate } from 'node:zlib';
import { gzipCorrupt, setGunzipImplementation } from './gzip';
import { setDeflateImplementation, type PositionalSink } from './hdf5-write';
import type { RandomAccessSource } from './h5-io';
import type { ByteSource, SourceBundle } from './sources';

/** Streaming gunzip on Node's native zlib (installed for every reader when this module loads). */
export async function* nodeGunzipChunks(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
): AsyncIterable<Uint8Array> {
  const gz = createGunzip({ chunkSize: 1 << 20 });
  let feedError: unknown;
  const feeder = (async () => {
    try {
      for await (const c of chunks) if (!gz.write(c)) await once(gz, 'drain');
      gz.end();
    } catch (e) {
      feedError = e;
      gz.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  try {
    for await (const out of gz) {
      const b = out as Buffer;
      yield new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    }
  } catch (e) {
    if (feedError) throw feedError;
    throw gzipCorrupt(file, e);
  } finally {
    await feeder;
  }
  if (feedError) throw feedError;
}

setGunzipImplementation(nodeGunzipChunks);
// HDF5 chunks are deflated on libuv's thread pool (several at once, off the main thread).
setDeflateImplementation(
  (bytes, level) =>
    new Promise((resolve, reject) =>
      deflate(bytes, { level }, (err, out) =>
        err ? reject(err) : resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength)),
      ),
    ),
);

export async function fileSource(filePath: string, name = path.basename(filePath)): Promise<ByteSource> {
  const { size } = await stat(filePath);
  return {
    name,
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(n);
      const fh = await open(filePath, 'r');
      try {
        let done = 0;
        while (done < n) {
          const { bytesRead } = await fh.read(buf, done, n - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === n ? buf : buf.subarray(0, done);
      } finally {
        await fh.close();
      }
    },
    async *stream() {
      for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
        const b = chunk as Buffer;
        yield new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      }
    },
  };
}

/**
 * A local file opened for synchronous positional reads (HDF5 through h5wasm, `withH5Source`);
 * `close()` releases the descriptor.
 */
export function fileRandomAccess(filePath: string): RandomAccessSource & { close(): void } {
  const fd = openSync(filePath, 'r');
  const size = fstatSync(fd).size;
  return {
    size,
    readInto(into, position) {
      let done = 0;
      while (done < into.length) {
        const n = readSync(fd, into, done, into.length - done, position + done);
        if (n === 0) break;
        done += n;
      }
      return done;
    },
    close: () => closeSync(fd),
  };
}

/**
 * A local file (created or emptied) written by positional writes: the count store's writer, HDF5
 * writers. `close()` releases the descriptor once the writer has finished.
 */
export async function fileSink(filePath: string): Promise<PositionalSink & { close(): Promise<void> }> {
  const fh = await open(filePath, 'w');
  return {
    async write(bytes, position) {
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, position + done);
        done += bytesWritten;
      }
    },
    close: () => fh.close(),
  };
}

async function walk(dir: string, rel: string, out: ByteSource[]): Promise<void> {
  const items = await readdir(dir, { withFileTypes: true });
  items.sort((a, b) => a.name.localeCompare(b.name));
  for (const it of items) {
    const full = path.join(dir, it.name);
    const r = rel ? `${rel}/${it.name}` : it.name;
    if (it.isDirectory()) await walk(full, r, out);
    else if (it.isFile()) out.push(await fileSource(full, r));
  }
}

/** All files under a folder (recursively), named by their path relative to it. */
export async function folderBundle(dir: string, name = path.basename(dir)): Promise<SourceBundle> {
  const entries: ByteSource[] = [];
  await walk(dir, '', entries);
  return { name, entries };
}

/** A bundle for a path: the folder's files, or the single file (archives are unpacked by readDataset). */
export async function pathBundle(p: string): Promise<SourceBundle> {
  const s = await stat(p);
  if (s.isDirectory()) return folderBundle(p);
  return { name: path.basename(p), entries: [await fileSource(p)] };
}

/** One bundle built from several files (e.g. matrix.mtx.gz, features.tsv.gz, barcodes.tsv.gz). */
export async function filesBundle(name: string, paths: string[]): Promise<SourceBundle> {
  return { name, entries: await Promise.all(paths.map((p) => fileSource(p))) };
}
