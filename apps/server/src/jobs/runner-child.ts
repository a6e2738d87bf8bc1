import type { Config } from '../config';
import { openStorage } from '../storage';
import type { Storage } from '../storage/storage';
import { peakRssKib, runChildTraced } from '../telemetry/child';
import type { ChildIo, ChildMain, ChildMessage } from './runner-child-process';

/**
 * Bootstrap of the memory-capped child process (forked by runner-child-process.ts). It knows no
 * job kinds: it imports the job module's own entry (`<job>.child.ts`) named by the parent, runs
 * its default export with the input, and reports progress and the outcome over IPC. Errors carry
 * their code: engine errors their `code`, analysis-task errors (TaskError) `task.<key>`.
 */
const send = (m: ChildMessage) => process.send?.(m);

function errorCode(e: unknown): { code?: string; params?: Record<string, unknown> } {
  const err = e as
    { name?: string; key?: string; code?: string; params?: Record<string, unknown> } | undefined;
  if (err?.name === 'TaskError' && err.key) return { code: `task.${err.key}`, params: err.params };
  return { code: err?.code, params: err?.params };
}

process.once('message', (m: { entry: string; input: unknown; config: Config }) => {
  let storage: Promise<Storage> | undefined;
  const io: ChildIo = {
    config: m.config,
    storage: () => (storage ??= openStorage(m.config)),
    progress: (fraction, step) => send({ type: 'progress', fraction, step }),
  };
  const entry = process.argv[2] ?? 'child';
  runChildTraced(m.config, entry, () =>
    import(m.entry).then((mod: { default: ChildMain<unknown> }) => mod.default(m.input, io)),
  ).then(
    (result) => send({ type: 'done', result, maxRssKib: peakRssKib() }),
    (e: unknown) =>
      send({
        type: 'error',
        message: e instanceof Error ? e.message : String(e),
        ...errorCode(e),
        maxRssKib: peakRssKib(),
      }),
  );
});
process.on('disconnect', () => process.exit(0));
