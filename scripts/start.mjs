// `npm start`: install (if needed), build the web app, then run the API + in-process worker on
// the embedded defaults (PGlite and local storage under CELLCLOUD_DATA_DIR, default ./data).
//
// The server is restarted when it is killed by a signal it did not ask for (a crash of the
// runtime, not a normal exit): Node 24's V8 can abort on a race in its WebAssembly code pages
// ("Check failed: jit_page.has_value()", nodejs/node#64500, seen once in our own test suite with
// the embedded PGlite), and a researcher's platform should come back by itself. PostgreSQL's own
// crash recovery keeps the data; jobs that were running resume from their checkpoints
// (docs/architecture.md). At most MAX_RESTARTS within RESTART_WINDOW_MS, then it stops with the
// reason, so a crash on every start does not loop for ever.
import { spawn } from 'node:child_process';
import { ensureInstalled, ensureWebBuilt, pinnedEnv, root } from './lib.mjs';

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

ensureInstalled();
ensureWebBuilt(true);

const restarts = [];
let stopping = false;
let child;

function startServer() {
  child = spawn('node', ['--import', 'tsx', 'apps/server/src/entry/api.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: pinnedEnv(),
  });
  child.on('exit', (code, signal) => {
    if (stopping || signal === null || signal === 'SIGINT' || signal === 'SIGTERM') {
      process.exit(code ?? 0);
    }
    const now = Date.now();
    while (restarts.length && now - restarts[0] > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) {
      console.error(
        `\n✖ the server was stopped by ${signal} ${MAX_RESTARTS + 1} times within ${RESTART_WINDOW_MS / 60_000} minutes; not restarting it again`,
      );
      process.exit(1);
    }
    restarts.push(now);
    console.error(`\n! the server was stopped by ${signal} (a crash of the runtime); starting it again…`);
    startServer();
  });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopping = true;
    child?.kill(sig);
  });
}
startServer();
