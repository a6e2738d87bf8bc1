import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite has no server and no lock of its own: two processes opening the same data directory
 * corrupt it. Every process that opens the embedded database writes `cellcloud.lock` (pid, host,
 * command, start time) in its directory and removes it on close or exit; a second process finds a
 * live holder and refuses with a message that names it (the admin CLI then says "stop the server").
 */
export const LOCK_FILE = 'cellcloud.lock';

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
}

export class EmbeddedDbInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by a running CellCloud process ` +
        `(pid ${holder.pid} on ${holder.host}, "${holder.command}", since ${holder.startedAt}). ` +
        'PGlite allows one process at a time: stop the server first (or use the web admin console at /admin), ' +
        `or point DATABASE_URL at a PostgreSQL server. If no such process runs, delete ${path.join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'EmbeddedDbInUseError';
  }
}

/** Is process `pid` of this machine alive (EPERM: alive, another user's)? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process (other than this one) holding the embedded database in `dataDir`, if any. */
export function embeddedDbHolder(dataDir: string): LockHolder | undefined {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(holder.pid) || holder.pid === process.pid) return undefined;
  // Another machine sharing the folder cannot be probed: believe its lock.
  if (holder.host !== os.hostname()) return holder;
  return alive(holder.pid) ? holder : undefined;
}

/** Throws EmbeddedDbInUseError when another live process holds `dataDir`. */
export function assertEmbeddedDbFree(dataDir: string): void {
  const holder = embeddedDbHolder(dataDir);
  if (holder) throw new EmbeddedDbInUseError(dataDir, holder);
}

/** Claims `dataDir` for this process; the returned function releases it (also done at exit). */
export function claimEmbeddedDb(dataDir: string): () => void {
  assertEmbeddedDbFree(dataDir);
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    command: process.argv
      .slice(1)
      .map((a) => path.basename(a))
      .join(' ')
      .slice(0, 200),
    startedAt: new Date().toISOString(),
  };
  writeFileSync(file, JSON.stringify(me));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      const cur = JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
      if (cur.pid === process.pid) rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
  process.on('exit', release);
  return release;
}
