import { Deflate, Gzip, zipSync } from 'fflate';
import { crc32 } from './archive';
import { centralHeader, dataDescriptor, endRecords, localHeader, type ZipEntryRecord } from './zip-records';

/**
 * A zip archive of named files (paths inside the archive use '/'). Files already compressed
 * (`.gz`) are stored, the rest deflated.
 */
export function zipFiles(files: Record<string, Uint8Array>): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [name, bytes] of Object.entries(files))
    entries[name] = [bytes, { level: name.endsWith('.gz') ? 0 : 6 }];
  return zipSync(entries);
}

/** A zip written as a stream: entries one after the other, each from chunks, bytes to `sink`. */
export interface ZipWriter {
  /**
   * `<name>.gz` entries are gzipped here and stored; `stored` entries are stored as given (bytes
   * already compressed); other entries are deflated.
   */
  add(name: string, chunks: Iterable<Uint8Array>, opts?: { stored?: boolean }): void;
  end(): void;
}

/**
 * Streams a zip archive to `sink` synchronously (fflate streaming gzip / deflate, our own records
 * with data descriptors, zip-records.ts): only the chunk being compressed is in memory, never an
 * entry or the archive. ZIP64 records are written where a size or offset reaches 4 GiB or there
 * are 65,535 entries or more. `offset`: bytes already in the file before the archive (offsets in
 * the archive count from the file's start).
 */
export function zipWriter(sink: (chunk: Uint8Array) => void, offset = 0): ZipWriter {
  let at = offset;
  const put = (b: Uint8Array) => {
    if (!b.length) return;
    sink(b);
    at += b.length;
  };
  const entries: ZipEntryRecord[] = [];
  const last = new Uint8Array(0);
  return {
    add(name, chunks, opts) {
      const gz = name.endsWith('.gz');
      const stored = !gz && !!opts?.stored;
      const e: ZipEntryRecord = {
        name,
        method: gz || stored ? 0 : 8,
        crc: 0,
        compressedSize: 0,
        size: 0,
        offset: at,
      };
      put(localHeader(name, e.method));
      const emit = (c: Uint8Array) => {
        e.compressedSize += c.length;
        // stored (.gz) entries: the CRC is of the gzip bytes as stored
        if (gz) e.crc = crc32(c, e.crc);
        put(c);
      };
      const z = stored
        ? { push: (c: Uint8Array) => put(c) }
        : gz
          ? new Gzip({ level: 6 }, emit)
          : new Deflate({ level: 6 }, emit);
      for (const c of chunks) {
        if (!gz) {
          e.size += c.length;
          e.crc = crc32(c, e.crc);
        }
        z.push(c, false);
      }
      z.push(last, true);
      if (gz) e.size = e.compressedSize;
      if (stored) e.compressedSize = e.size;
      put(dataDescriptor(e));
      entries.push(e);
    },
    end() {
      const start = at;
      for (const e of entries) put(centralHeader(e));
      put(endRecords(entries.length, start, at - start));
    },
  };
}
