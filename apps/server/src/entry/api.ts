import { loadConfigOrExit } from '../config';
import { buildApp } from '../http/app';
import { closeContext, composeContext } from './compose';
import { listUsers } from '../services/accounts/admin';
import { firstAdminHint, publishAdminControl } from '../services/admin/control';
import { flushTraces } from '../telemetry/tracing';

/** API process: HTTP API + (by default) an in-process worker + the built web app. */
async function main() {
  const config = loadConfigOrExit();
  const ctx = await composeContext(config);
  const app = await buildApp(ctx);
  const shutdown = async () => {
    await app.close().catch(() => {});
    await closeContext(ctx).catch(() => {});
    await flushTraces().catch(() => {}); // spans still buffered for OTLP (issue 34)
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = config.publicBaseUrl ?? `http://localhost:${port}`;
  const mail = config.smtp
    ? 'Sign-up and password e-mail codes are sent through the configured SMTP server.'
    : 'No SMTP server is configured: sign-up and password codes appear in this log on a line\n  starting with "[outbox]" (e.g. [outbox] to=you@example.org purpose=register code=123456).';
  publishAdminControl(config, port); // `npm run admin` while this server holds the embedded database
  const noAdmin = !(await listUsers(ctx.db)).some((u) => u.is_admin);
  console.log(
    `\nCellCloud is running at ${url}  (database: ${ctx.db.kind}, storage: ${ctx.storage.kind}, data: ${config.dataDir})\n  ${mail}\n${noAdmin ? `${firstAdminHint(!config.databaseUrl)}\n` : ''}`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
