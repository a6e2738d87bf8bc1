import { z } from 'zod';
import type { AppContext } from '../../context';
import { ADMIN_USAGE, resolveFileArgs, runAdminCommand, UsageError } from '../../services/admin/commands';
import { ADMIN_CLI_PATH, CONTROL_HEADER, isAdminControlSecret } from '../../services/admin/control';
import type { ZodApp } from '../app';
import { ok, okSchema } from '../envelope';
import { AppError } from '../errors';

const body = z.strictObject({
  argv: z.array(z.string().max(4000)).max(40),
  /** The tool's working directory: relative file arguments are read from there. */
  cwd: z.string().min(1).max(4000),
});

const result = z.object({
  exitCode: z.number().int(),
  text: z.string(),
  ingestId: z.string().optional(),
  status: z.string().optional(),
});

/**
 * The admin tool's commands run by this server for `npm run admin` on the same machine, while the
 * server holds the embedded database (services/admin/control.ts). Authenticated by the secret of
 * `CELLCLOUD_DATA_DIR/admin-control.json`, not by an account: it is how the first administrator
 * is created. A server on PostgreSQL publishes no secret, so every call is refused there.
 */
export default async function adminCliRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    ADMIN_CLI_PATH,
    {
      schema: {
        tags: ['admin'],
        summary: 'Run an admin tool command (npm run admin, while this server holds the embedded database)',
        body,
        response: okSchema(result),
      },
    },
    async (req) => {
      if (!isAdminControlSecret(req.headers[CONTROL_HEADER])) throw new AppError('FORBIDDEN');
      const argv = resolveFileArgs(req.body.argv, req.body.cwd);
      const deps = { db: ctx.db, config: ctx.config, storage: ctx.storage, queue: ctx.services.jobs?.queue };
      // a long ingest is followed with ingest-status by the tool, not held open here
      const remote =
        argv.includes('ingest-public') && !argv.includes('--no-wait') ? [...argv, '--no-wait'] : argv;
      try {
        return ok({ exitCode: 0, ...(await runAdminCommand(deps, remote)) });
      } catch (e) {
        const msg = (e as Error).message;
        if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
          return ok({ exitCode: 2, text: `error: ${msg}\n\n${ADMIN_USAGE}` });
        return ok({ exitCode: 1, text: `error: ${msg}` });
      }
    },
  );
}
