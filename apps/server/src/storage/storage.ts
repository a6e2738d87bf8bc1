import type { Readable } from 'node:stream';

/**
 * Object storage contract (local directory by default, S3-compatible when configured).
 * Keys are relative POSIX paths (`raw/<uploadId>/file`, `results/<id>/manifest.json`); a key
 * never starts with '/' and never contains '..' (checked by `assertKey`).
 * Writes are atomic: `put` writes a temporary object and renames/commits it only when complete.
 */
export interface StorageStat {
  size: number;
  mtime: Date;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Readable | Uint8Array): Promise<void>;
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  getBytes(key: string): Promise<Uint8Array>;
  stat(key: string): Promise<StorageStat | undefined>;
  /** Delete one object or, with a trailing '/', everything under a prefix. */
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /** Move every object under `fromPrefix/` to `toPrefix/` (used to publish results atomically). */
  movePrefix(fromPrefix: string, toPrefix: string): Promise<void>;
  /** Total bytes under a prefix (quota accounting). */
  usage(prefix: string): Promise<number>;
  check(): Promise<void>;
}

export function assertKey(key: string): string {
  if (
    !key ||
    key.startsWith('/') ||
    key.split('/').some((p) => p === '..' || p === '.') ||
    key.includes('\\') ||
    key.includes('\0')
  ) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}
