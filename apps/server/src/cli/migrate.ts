import path from 'node:path';
import { loadConfigOrExit } from '../config';
import { openDb } from '../db/client';
import { migrate } from '../db/migrate';
import { syncPrivilegesAndPlans } from '../services/plans/sync';

/**
 * `npm run migrate`: applies the database migrations and the built-in privileges/plans, then
 * exits. Every API and worker process does the same at start (under an advisory lock), so this is
 * only needed where the schema should change before new processes start: the Helm chart's
 * migration Job and the compose file's `migrate` service (deploy/README.md).
 */
async function main() {
  const config = loadConfigOrExit();
  const db = await openDb({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pg') });
  try {
    const applied = await migrate(db);
    await syncPrivilegesAndPlans(db);
    console.log(
      applied.length ? `applied ${applied.length} migrations: ${applied.join(', ')}` : 'schema is up to date',
    );
  } finally {
    await db.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
