import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './client';
import { claimEmbeddedDb } from './embedded-lock';
import { Mutex } from './mutex';

/**
 * Embedded PostgreSQL (PGlite). One connection, so every statement and every transaction runs
 * under one FIFO mutex; a transaction holds it from BEGIN to COMMIT/ROLLBACK.
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One process at a time on a data directory (a running server vs the admin CLI): see embedded-lock.ts.
  const release = dataDir ? claimEmbeddedDb(dataDir) : () => {};
  let pg: PGlite;
  try {
    pg = await PGlite.create(dataDir ? { dataDir } : {});
  } catch (e) {
    release();
    throw e;
  }
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
