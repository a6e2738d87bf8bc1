import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputSink } from '../write-outputs';

/** Writes outputs under a local directory, creating folders as needed. */
export function directorySink(root: string): OutputSink {
  return {
    async write(rel, bytes) {
      const target = path.join(root, rel);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes);
    },
    // positional writes for the streaming h5ad writer (engine write-outputs)
    async open(rel) {
      const target = path.join(root, rel);
      await mkdir(path.dirname(target), { recursive: true });
      const fh = await open(target, 'w');
      return {
        async write(bytes, position) {
          let done = 0;
          while (done < bytes.length)
            done += (await fh.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
        },
        close: () => fh.close(),
      };
    },
  };
}
