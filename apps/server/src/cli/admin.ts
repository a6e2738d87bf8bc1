import path from 'node:path';
import { loadConfigOrExit, type Config } from '../config';
import { openDb } from '../db/client';
import { backupDataDir, restoreDataDir } from '../db/backup';
import { migrate } from '../db/migrate';
import { ADMIN_USAGE, resolveFileArgs, runAdminCommand, UsageError } from '../services/admin/commands';
import {
  ADMIN_CLI_PATH,
  CONTROL_HEADER,
  readAdminControl,
  type AdminControl,
} from '../services/admin/control';
import type { PublicIngestWorker } from '../services/public-datasets/cli';
import { syncPrivilegesAndPlans } from '../services/plans/sync';
import { openStorage } from '../storage';

/** Works `public.ingest` on the tool's own queue: the job handler, loaded only for that command. */
const workPublicIngest: PublicIngestWorker = async (queue, deps) => {
  const { handlePublicIngest } = await import('../jobs/public.ingest');
  await queue.work('public.ingest', (job) => handlePublicIngest(deps, job), { concurrency: 1 });
};

/** Where the administrator typed the command (`npm run` runs the tool in the project folder). */
const callerCwd = process.env.INIT_CWD ?? process.cwd();

async function backupOrRestore(config: Config, command: string, target: string | undefined): Promise<number> {
  if (!target || config.databaseUrl) {
    console.error(
      config.databaseUrl
        ? 'error: with DATABASE_URL use pg_dump / pg_restore (README, "Backup and restore")'
        : `error: ${command} needs a folder\n\n${ADMIN_USAGE}`,
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

interface RemoteResult {
  exitCode: number;
  text: string;
  ingestId?: string;
  status?: string;
}

/** One command run by the server holding the embedded database (services/admin/control.ts). */
async function remote(control: AdminControl, argv: string[]): Promise<RemoteResult> {
  let res: Response;
  try {
    res = await fetch(`${control.url}${ADMIN_CLI_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONTROL_HEADER]: control.secret, 'x-lang': 'en-US' },
      body: JSON.stringify({ argv, cwd: callerCwd }),
    });
  } catch (e) {
    throw new Error(
      `the CellCloud server (pid ${control.pid}) holds the embedded database but did not answer at ${control.url} (${(e as Error).message}); retry once it is up, or stop it and run the command again`,
    );
  }
  const body = (await res.json().catch(() => ({}))) as { code?: number; msg?: string; data?: RemoteResult };
  if (!res.ok || !body.data)
    throw new Error(`the server at ${control.url} refused the command: ${body.msg ?? res.status}`);
  return body.data;
}

/** Through the running server: the command, then — for an ingest the user waits for — its progress. */
async function viaServer(control: AdminControl, argv: string[]): Promise<number> {
  console.error(`(sent to the running server, pid ${control.pid})`);
  const r = await remote(control, argv);
  const print = (x: RemoteResult) => (x.exitCode === 0 ? console.log(x.text) : console.error(x.text));
  print(r);
  if (r.exitCode !== 0 || !r.ingestId || !argv.includes('ingest-public') || argv.includes('--no-wait'))
    return r.exitCode;
  let seen = '';
  for (;;) {
    const s = await remote(control, ['ingest-status', r.ingestId]);
    if (s.exitCode !== 0) {
      print(s);
      return s.exitCode;
    }
    if (s.status === 'completed' || s.status === 'error') {
      print({ ...s, exitCode: s.status === 'error' ? 1 : 0 });
      return s.status === 'error' ? 1 : 0;
    }
    if (s.text !== seen) console.log((seen = s.text));
    await new Promise((res) => setTimeout(res, 1000));
  }
}

async function direct(config: Config, argv: string[]): Promise<number> {
  const db = await openDb({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'pg') });
  try {
    await migrate(db);
    await syncPrivilegesAndPlans(db);
    const storage = argv.some((a) => a.endsWith('-public')) ? await openStorage(config) : undefined;
    const r = await runAdminCommand({ db, config, storage, workPublicIngest }, argv, (line) =>
      console.log(line),
    );
    console.log(r.text);
    return 0;
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  const config = loadConfigOrExit();
  const argv = resolveFileArgs(process.argv.slice(2), callerCwd);
  const [command, target] = argv;
  if (command === 'backup' || command === 'restore') return backupOrRestore(config, command, target);
  try {
    const control = config.databaseUrl ? undefined : readAdminControl(config.dataDir);
    return control ? await viaServer(control, argv) : await direct(config, argv);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`error: ${(e as Error).message}\n\n${ADMIN_USAGE}`);
      return 2;
    }
    console.error(`error: ${(e as Error).message}`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
