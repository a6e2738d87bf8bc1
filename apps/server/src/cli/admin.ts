import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config';
import { openDb, type Db } from '../db/client';
import { backupDataDir, restoreDataDir } from '../db/backup';
import { migrate } from '../db/migrate';
import { assignPlan, createAdmin, listPlans, listUsers, setUserDisabled } from '../services/accounts/admin';
import { syncPrivilegesAndPlans } from '../services/plans/sync';
import { ingestPublicCli } from '../services/public-datasets/cli';
import { openStorage } from '../storage';

const USAGE = `CellCloud admin tool — uses the same configuration as the server (DATABASE_URL or
CELLCLOUD_DATA_DIR). With the embedded database (no DATABASE_URL), stop the server first: a
running server holds it (CELLCLOUD_DATA_DIR/pg/cellcloud.lock) and the tool says so and stops.

  npm run admin -- create-admin --username <name> --email <e-mail> --password <password>
                                [--first-name <x>] [--last-name <x>] [--institution <x>]
  npm run admin -- list-users
  npm run admin -- list-plans
  npm run admin -- assign-plan <user name or e-mail> <plan id>
  npm run admin -- disable-user <user name or e-mail>
  npm run admin -- enable-user <user name or e-mail>
  npm run admin -- backup <new folder>      embedded database + local storage (server stopped)
  npm run admin -- restore <backup folder>  into an empty CELLCLOUD_DATA_DIR
  npm run admin -- ingest-public <file.h5ad> --meta <sheet.yaml|json>   public database (CELLxGENE schema)
  npm run admin -- ingest-public <10x folder|counts file> --meta <sheet>  public database (counts + sheet: cells, columns)
      validates at once (a violation prints the report and stores nothing), then queues the
      public.ingest job (standard analysis → explorer) and waits for it, working the queue itself;
      --no-wait only queues it and prints the ingest id (a server's worker runs it)
  npm run admin -- withdraw-public <dataset id>                         hide a public dataset
`;

class UsageError extends Error {}

const fmt = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 19).replace('T', ' ') : '-');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function run(db: Db, argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      institution: { type: 'string' },
      meta: { type: 'string' },
      'no-wait': { type: 'boolean' },
    },
  });
  const [command, ...args] = positionals;
  const need = (n: number) => {
    if (args.length !== n) throw new UsageError(`${command} needs ${n} argument(s)`);
  };
  switch (command) {
    case 'create-admin': {
      const u = await createAdmin(db, {
        username: values.username,
        email: values.email,
        password: values.password,
        firstName: values['first-name'],
        lastName: values['last-name'],
        institution: values.institution,
      });
      return `created admin ${u.username} <${u.email}> on plan ${u.plan_id ?? '-'}`;
    }
    case 'list-users': {
      const users = await listUsers(db);
      if (!users.length) return 'no users';
      return table([
        ['USERNAME', 'EMAIL', 'PLAN', 'ROLE', 'STATUS', 'CREATED'],
        ...users.map((u) => [
          u.username,
          u.email,
          u.plan_id ?? '-',
          u.is_admin ? 'admin' : 'user',
          u.disabled_at ? `disabled ${fmt(u.disabled_at)}` : 'active',
          fmt(u.created_at),
        ]),
      ]);
    }
    case 'list-plans': {
      const plans = await listPlans(db);
      return table([
        ['PLAN', 'NAME', 'DEFAULT', 'QUOTA', 'USERS'],
        ...plans.map((p) => [
          p.id,
          p.name,
          p.is_default ? 'yes' : '',
          p.storage_quota_bytes === null
            ? 'instance default'
            : `${(Number(p.storage_quota_bytes) / 1024 ** 3).toFixed(0)} GiB`,
          String(p.users),
        ]),
      ]);
    }
    case 'assign-plan': {
      need(2);
      const u = await assignPlan(db, args[0]!, args[1]!);
      return `user ${u.username} is now on plan ${args[1]}`;
    }
    case 'disable-user':
    case 'enable-user': {
      need(1);
      const off = command === 'disable-user';
      const u = await setUserDisabled(db, args[0]!, off);
      return off
        ? `user ${u.username} is disabled; its sessions were revoked`
        : `user ${u.username} is enabled`;
    }
    case 'ingest-public':
    case 'withdraw-public': {
      need(1);
      if (command === 'ingest-public' && !values.meta)
        throw new UsageError('ingest-public needs --meta <sheet.yaml|json>');
      const config = loadConfigOrExit();
      return ingestPublicCli(
        { db, storage: await openStorage(config), config },
        command,
        args[0]!,
        values.meta,
        {
          wait: !values['no-wait'],
          log: (line) => console.log(line),
        },
      );
    }
    case undefined:
    case 'help':
      return USAGE;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function main(): Promise<number> {
  const config = loadConfigOrExit();
  const [command, target] = process.argv.slice(2);
  if (command === 'backup' || command === 'restore') {
    if (!target || config.databaseUrl) {
      console.error(
        config.databaseUrl
          ? 'error: with DATABASE_URL use pg_dump / pg_restore (README, "Backup and restore")'
          : `error: ${command} needs a folder\n\n${USAGE}`,
      );
      return 2;
    }
    let info: Awaited<ReturnType<typeof backupDataDir>>;
    try {
      info =
        command === 'backup'
          ? await backupDataDir(config.dataDir, path.resolve(target))
          : await restoreDataDir(path.resolve(target), config.dataDir);
    } catch (e) {
      console.error(`error: ${(e as Error).message}`);
      return 1;
    }
    console.log(
      `${command === 'backup' ? 'backed up' : 'restored'}: database ${info.databaseBytes} bytes, ${info.storageFiles} stored files (${info.storageBytes} bytes)`,
    );
    return 0;
  }
  const db = await openDb({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pg') });
  try {
    await migrate(db);
    await syncPrivilegesAndPlans(db);
    console.log(await run(db, process.argv.slice(2)));
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`error: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`error: ${(e as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
