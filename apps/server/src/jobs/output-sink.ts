import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OutputSink } from '@cellcloud/engine';
import type { Storage } from '../storage/storage';

/**
 * The engine's output sink over storage, under `prefix`. Small files go straight to `storage.put`;
 * large ones (analysis.h5ad, the expression chunks) are opened: the engine streams them into a
 * temporary local file at positions (so the child never holds a whole file), and `close` uploads
 * that file as a stream and removes it.
 */
export function storageOutputSink(storage: Storage, prefix: string): OutputSink {
  return {
    write: (rel, bytes) => storage.put(`${prefix}${rel}`, bytes),
    async open(rel) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-out-'));
      const file = path.join(dir, 'part');
      const fh = await open(file, 'w');
      return {
        async write(bytes, position) {
          let done = 0;
          while (done < bytes.length)
            done += (await fh.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
        },
        async close() {
          try {
            await fh.close();
            await storage.put(`${prefix}${rel}`, createReadStream(file));
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
      };
    },
  };
}
