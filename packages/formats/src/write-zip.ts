import { Gzip, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';

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
  /** `<name>.gz` entries are gzipped here and stored; other entries are deflated. */
  add(name: string, chunks: Iterable<Uint8Array>): void;
  end(): void;
}

/**
 * Streams a zip archive to `sink` synchronously (fflate streaming gzip/deflate + zip with data
 * descriptors): only the chunk being compressed is in memory, never an entry or the archive.
 * No ZIP64: the archive must stay under 4 GiB.
 */
export function zipWriter(sink: (chunk: Uint8Array) => void): ZipWriter {
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    sink(chunk);
  });
  const last = new Uint8Array(0);
  return {
    add(name, chunks) {
      if (name.endsWith('.gz')) {
        const file = new ZipPassThrough(name);
        zip.add(file);
        const gz = new Gzip({ level: 6 }, (c, final) => file.push(c, final));
        for (const c of chunks) gz.push(c);
        gz.push(last, true);
      } else {
        const file = new ZipDeflate(name, { level: 6 });
        zip.add(file);
        for (const c of chunks) file.push(c);
        file.push(last, true);
      }
    },
    end: () => zip.end(),
  };
}
