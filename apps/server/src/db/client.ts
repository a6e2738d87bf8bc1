/**
 * The database access contract. All SQL of the server goes through a `Db`.
 *  - `query` runs one statement with positional parameters ($1…) and returns rows.
 *  - `tx` runs a function inside a transaction; the `Queryable` it receives must be used for
 *    every statement of that transaction. On PGlite (one connection) the whole transaction
 *    holds the connection lock, so other queries wait: keep transactions short.
 *  - `exec` runs a multi-statement script without parameters (migrations).
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  exec(sql: string): Promise<void>;
  /**
   * Runs a multi-statement script without parameters and returns the rows of every statement
   * (the job queue's BEGIN … RETURNING … COMMIT blocks). A failed script leaves no open
   * transaction behind.
   */
  execRows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** postgres:// URL; when absent an embedded PGlite database is used. */
  url?: string;
  /** PGlite data directory; undefined = in memory. */
  dataDir?: string;
  /** In memory only: start from this dump of a migrated database (pglite.ts migratedPgliteDump). */
  pgliteTemplate?: Blob;
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  if (opts.url) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(opts.url);
  }
  const { openPglite } = await import('./pglite');
  return openPglite(opts.dataDir, opts.pgliteTemplate);
}
