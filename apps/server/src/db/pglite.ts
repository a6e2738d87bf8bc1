import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './client';
import { claimEmbeddedDb } from './embedded-lock';
import { migrate } from './migrate';
import { Mutex } from './mutex';

/**
 * Embedded PostgreSQL (PGlite). One connection, so every statement and every transaction runs
 * under one FIFO mutex; a transaction holds it from BEGIN to COMMIT/ROLLBACK.
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One process at a time on a data directory (a running server vs the admin CLI): see embedded-lock.ts.
  const release = dataDir ? claimEmbeddedDb(dataDir) : () => {};
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir ? { dataDir } : template ? { loadDataDir: template } : {});
  } catch (e) {
    release();
    throw e;
  }
  return wrapPglite(pg, release);
}

/**
 * An in-memory database with every migration applied, as a PGlite data-directory dump: what
 * `openPglite(undefined, dump)` starts from instead of an empty cluster. The test harness opens
 * ~150 scratch databases per run; from the dump each costs ~0.65 CPU s against ~2.8 for a new
 * cluster (initdb in WebAssembly) plus the migrations (measured 2026-11-30, server tests).
 */
export async function migratedPgliteDump(): Promise<Blob> {
  const pg = await PGlite.create();
  const db = wrapPglite(pg, () => {});
  try {
    await migrate(db);
    return await pg.dumpDataDir('none');
  } finally {
    await db.close();
  }
}

function wrapPglite(pg: PGlite, release: () => void): Db {
  const lock = new Mutex();
  let closed = false;

  const raw: Queryable = {
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pg.query<T>(sql, params);
      return r.rows;
    },
  };

  return {
    kind: 'pglite',
    query: (sql, params) => lock.run(() => raw.query(sql, params)),
    exec: (sql) => lock.run(async () => void (await pg.exec(sql))),
    execRows: (sql) =>
      lock.run(async () => {
        try {
          const results = await pg.exec(sql);
          return results.flatMap((r) => (r.rows ?? []) as Record<string, unknown>[]);
        } catch (e) {
          // One connection: an aborted script must not poison the statements queued behind it.
          await pg.exec('ROLLBACK').catch(() => {});
          throw e;
        }
      }),
    tx: (fn) =>
      lock.run(async () => {
        await pg.exec('BEGIN');
        try {
          const out = await fn(raw);
          await pg.exec('COMMIT');
          return out;
        } catch (e) {
          await pg.exec('ROLLBACK');
          throw e;
        }
      }),
    async close() {
      if (closed) return;
      closed = true;
      await lock.run(() => pg.close());
      release();
    },
  };
}

/** The raw PGlite handle is not exposed; pg-boss talks through `Db` as well (see src/queue). */
