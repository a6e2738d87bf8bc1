import { mkdir, writeFile } from 'node:fs/promises';
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
  };
}
