import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { publicIngestsRepo } from '../../db/repos/public-ingests';
import { usersRepo } from '../../db/repos/users';
import type { JobQueue } from '../../queue/job-queue';
import type { Storage } from '../../storage/storage';
import { assignPlan, createAdmin, listPlans, listUsers, setUserDisabled } from '../accounts/admin';
import { ingestDoneText, ingestPublicCli, type PublicIngestWorker } from '../public-datasets/cli';

export const ADMIN_USAGE = `CellCloud admin tool — uses the same configuration as the server (DATABASE_URL or
CELLCLOUD_DATA_DIR). With the embedded database (no DATABASE_URL) and a server running on it, the
tool sends each command to that server (CELLCLOUD_DATA_DIR/admin-control.json, written at start);
with no server running it opens the database itself. backup and restore need the server stopped.

  npm run admin -- create-admin --username <name> --email <e-mail> --password <password>
                                [--first-name <x>] [--last-name <x>] [--institution <x>]
  npm run admin -- grant-admin <user name or e-mail>   make a signed-up account an administrator
  npm run admin -- list-users
  npm run admin -- list-plans
  npm run admin -- assign-plan <user name or e-mail> <plan id>
  npm run admin -- disable-user <user name or e-mail>
  npm run admin -- enable-user <user name or e-mail>
  npm run admin -- backup <new folder>      embedded database + local storage (server stopped)
  npm run admin -- restore <backup folder>  into an empty CELLCLOUD_DATA_DIR
  npm run admin -- ingest-public <file.h5ad> --meta <sheet.yaml|json>   public database (CELLxGENE schema)
  npm run admin -- ingest-public <10x folder|counts file> --meta <sheet>  public database (counts + sheet: cells, columns)
      validates at once (a violation prints every problem and stores nothing), then queues the
      public.ingest job (standard analysis → explorer) and prints its progress until it ends;
      --no-wait only queues it and prints the ingest id (a server's worker runs it)
  npm run admin -- ingest-status <ingest id>                            progress of a queued ingest
  npm run admin -- withdraw-public <dataset id>                         hide a public dataset
`;

/** A wrong command line: the tool prints the message and the usage, exit status 2. */
export class UsageError extends Error {}

export interface AdminCommandDeps {
  db: Db;
  config: Config;
  /** Needed by ingest-public / withdraw-public. */
  storage?: Storage;
  /** A started queue whose workers run `public.ingest` (a running server's); else the tool works it. */
  queue?: JobQueue;
  /** How the tool works its own queue (src/cli/admin.ts passes the job handler). */
  workPublicIngest?: PublicIngestWorker;
}

export interface AdminCommandResult {
  text: string;
  /** Set by `ingest-public --no-wait`: the queued ingest (the remote tool follows its progress). */
  ingestId?: string;
  /** ingest-status: the ingest's status (queued, running, completed, error). */
  status?: string;
}

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

/** One line about an ingest: status, step and percentage, or its error. */
export function ingestStatusLine(r: {
  id: string;
  dataset_id: string;
  version: number;
  status: string;
  step: string | null;
  progress: number;
  message?: string | null;
}): string {
  const step = r.step && r.status !== 'completed' ? ` — ${r.step} ${Math.round(r.progress * 100)} %` : '';
  const why = r.status === 'error' && r.message ? `: ${r.message}` : '';
  return `public dataset ${r.dataset_id} v${r.version} (ingest ${r.id}): ${r.status}${step}${why}`;
}

/**
 * The admin tool's commands (README "Accounts and plans"), run on an open database: by the CLI
 * itself (no server holds the database), or by a running server for the CLI
 * (POST /api/admin/cli, services/admin/control.ts). `backup` / `restore` are the CLI's own.
 */
export async function runAdminCommand(
  deps: AdminCommandDeps,
  argv: string[],
  log: (line: string) => void = () => {},
): Promise<AdminCommandResult> {
  const { db } = deps;
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
      return { text: `created admin ${u.username} <${u.email}> on plan ${u.plan_id ?? '-'}` };
    }
    case 'grant-admin': {
      need(1);
      const u = await usersRepo.byLogin(db, args[0]!);
      if (!u) throw new Error(`no user "${args[0]}" (give a user name or an e-mail; see list-users)`);
      await usersRepo.setAdmin(db, u.id, true);
      return { text: `user ${u.username} is now an administrator (user menu → Admin console)` };
    }
    case 'list-users': {
      const users = await listUsers(db);
      if (!users.length) return { text: 'no users' };
      return {
        text: table([
          ['USERNAME', 'EMAIL', 'PLAN', 'ROLE', 'STATUS', 'CREATED'],
          ...users.map((u) => [
            u.username,
            u.email,
            u.plan_id ?? '-',
            u.is_admin ? 'admin' : 'user',
            u.disabled_at ? `disabled ${fmt(u.disabled_at)}` : 'active',
            fmt(u.created_at),
          ]),
        ]),
      };
    }
    case 'list-plans': {
      const plans = await listPlans(db);
      return {
        text: table([
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
        ]),
      };
    }
    case 'assign-plan': {
      need(2);
      const u = await assignPlan(db, args[0]!, args[1]!);
      return { text: `user ${u.username} is now on plan ${args[1]}` };
    }
    case 'disable-user':
    case 'enable-user': {
      need(1);
      const off = command === 'disable-user';
      const u = await setUserDisabled(db, args[0]!, off);
      return {
        text: off
          ? `user ${u.username} is disabled; its sessions were revoked`
          : `user ${u.username} is enabled`,
      };
    }
    case 'ingest-status': {
      need(1);
      const r = await publicIngestsRepo.get(db, args[0]!);
      if (!r) throw new Error(`no ingest "${args[0]}"`);
      return {
        text: r.status === 'completed' ? ingestDoneText(r) : ingestStatusLine(r),
        ingestId: r.id,
        status: r.status,
      };
    }
    case 'ingest-public':
    case 'withdraw-public': {
      need(1);
      if (command === 'ingest-public' && !values.meta)
        throw new UsageError('ingest-public needs --meta <sheet.yaml|json>');
      if (!deps.storage) throw new Error(`${command} needs the storage`);
      const out = await ingestPublicCli(
        {
          db,
          storage: deps.storage,
          config: deps.config,
          queue: deps.queue,
          workPublicIngest: deps.workPublicIngest,
        },
        command,
        args[0]!,
        values.meta,
        { wait: !values['no-wait'], log },
      );
      const queued = /: ingest ([0-9a-f-]{36})/.exec(out);
      return { text: out, ingestId: queued?.[1] };
    }
    case undefined:
    case 'help':
      return { text: ADMIN_USAGE };
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * The file arguments of ingest-public (the target and --meta) resolved against `cwd`: the
 * directory the administrator typed the command in (`npm run` itself runs in the project folder,
 * INIT_CWD keeps the caller's), also for a server that runs the command for the tool.
 */
export function resolveFileArgs(argv: string[], cwd: string): string[] {
  const k = argv.indexOf('ingest-public');
  if (k < 0) return argv;
  let target = false;
  return argv.map((a, i) => {
    if (i <= k) return a;
    if (argv[i - 1] === '--meta') return path.resolve(cwd, a);
    if (a.startsWith('--meta=')) return `--meta=${path.resolve(cwd, a.slice(7))}`;
    if (a.startsWith('-') || target) return a;
    target = true;
    return path.resolve(cwd, a);
  });
}
