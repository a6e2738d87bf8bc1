import pg from 'pg';

const ADMIN_URL = process.env.CELLCLOUD_E2E_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDb {
  url: string;
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database for one e2e server, so a test can arrange data the UI has no
 * screen for (e.g. more update-log entries than one page). Needs the local PostgreSQL.
 */
export async function scratchDatabase(): Promise<ScratchDb> {
  const name = `cellcloud_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    url,
    query: (sql, params) => client.query(sql, params as unknown[]),
    drop: async () => {
      await client.end();
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
