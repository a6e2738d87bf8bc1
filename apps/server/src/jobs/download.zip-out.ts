import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipWriter, type ZipWriter } from '@cellcloud/formats/write-zip';
import type { Storage } from '../storage/storage';

/**
 * A zip written entry by entry into a local temporary file (no whole archive in memory), then
 * uploaded as a stream to `outKey`. Used by the tables and figures downloads (issue 21).
 */
export async function zipToStorage(
  storage: Storage,
  outKey: string,
  build: (zip: ZipWriter) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-zip-'));
  try {
    const file = path.join(dir, 'out.zip');
    const fd = openSync(file, 'w');
    try {
      const zip = zipWriter((chunk) => {
        for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done);
      });
      await build(zip);
      zip.end();
    } finally {
      closeSync(fd);
    }
    await storage.put(outKey, createReadStream(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
