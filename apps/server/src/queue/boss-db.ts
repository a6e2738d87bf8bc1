import type { Db as IDatabase } from 'pg-boss';
import type { Db } from '../db/client';

/**
 * pg-boss's database adapter over our `Db` for the embedded PGlite default: every statement goes
 * through the same FIFO connection lock as the rest of the server, so pg-boss's multi-statement
 * `BEGIN … advisory lock … COMMIT` scripts run whole, never interleaved with our transactions.
 * Statements with values are single statements (`query`); scripts without values go to
 * `execRows`, which rolls back an aborted script so it cannot poison later statements.
 */
export function bossDbFromDb(db: Db): IDatabase {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length) return { rows: await db.query(text, values) };
      return { rows: await db.execRows(text) };
    },
  };
}
