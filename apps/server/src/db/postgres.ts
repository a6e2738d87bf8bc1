import pg from 'pg';
import type { Db } from './client';

/** A real PostgreSQL through a connection pool. */
export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection the server ends out of band (restart, DROP DATABASE … FORCE while the pool is
  // closing) emits 'error' on its client; without a listener that crashes the process. Errors of
  // running queries still reject their promises.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Fail fast with a clear message when the server is unreachable.
  try {
    const c = await pool.connect();
    c.release();
  } catch (e) {
    await pool.end().catch(() => {});
    throw new Error(`Cannot connect to PostgreSQL at ${redact(url)}: ${(e as Error).message}`);
  }
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pool.query(sql, params);
      return r.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async execRows(sql: string) {
      const r = (await pool.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(r) ? r : [r]).flatMap((x) => (x.rows ?? []) as Record<string, unknown>[]);
    },
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          query: async <T>(sql: string, params: unknown[] = []) =>
            (await client.query(sql, params)).rows as T[],
        });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
