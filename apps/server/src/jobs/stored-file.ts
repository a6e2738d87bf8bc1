import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import type { RandomAccessSource } from '@cellcloud/formats/h5-io';
import type { Storage } from '../storage/storage';

/**
 * Runs `fn` with a stored object opened for synchronous random access (what HDF5 reads need):
 * the object is streamed from storage (local or S3) into a temporary local file a buffer at a
 * time, opened by descriptor, and removed afterwards — the object is never held in memory.
 */
export async function withStoredFile<T>(
  storage: Storage,
  key: string,
  fn: (source: RandomAccessSource) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-in-'));
  try {
    const file = path.join(dir, path.basename(key));
    await pipeline(await storage.get(key), createWriteStream(file));
    const source = fileRandomAccess(file);
    try {
      return await fn(source);
    } finally {
      source.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
