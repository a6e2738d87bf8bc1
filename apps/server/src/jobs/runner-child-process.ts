import { fork } from 'node:child_process';
import { engineErrorCodes } from '@cellcloud/engine/errors';
import { withMallocTunables } from '@cellcloud/engine/malloc-tunables';
import { PermanentJobError } from './runner-tracked';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProgressEvent } from '@cellcloud/contracts/jobs';
import type { Config } from '../config';
import type { Storage } from '../storage/storage';
import { childTelemetry } from '../telemetry/child';

/**
 * What the parent asks a child to compute: the job module's own child entry (`<job>.child.ts`,
 * whose default export is a `ChildMain`) and its input. The parent never imports the entry (it
 * pulls in the engine); it names it by URL, e.g. `new URL('./analysis.deg.child.ts', import.meta.url)`.
 * `id` (job/task/draft id) is shown by `ps` after the entry name.
 */
export interface ChildTask<I = unknown> {
  entry: URL;
  id: string;
  input: I;
}

export function childTask<I>(entry: URL, id: string, input: I): ChildTask<I> {
  return { entry, id, input };
}

/** What a child entry receives besides its input. */
export interface ChildIo {
  config: Config;
  /** The configured storage, opened on first use. */
  storage(): Promise<Storage>;
  progress(fraction: number, step: string): void;
}

/** Default export of a `<job>.child.ts` entry; its result is sent back to the parent. */
export type ChildMain<I> = (input: I, io: ChildIo) => Promise<unknown>;

/** What `ps` shows after the child's bootstrap: the entry's job name and its id. */
function childArgs(task: ChildTask): string[] {
  const file = task.entry.pathname.slice(task.entry.pathname.lastIndexOf('/') + 1);
  return [file.replace(/\.child\.ts$/, ''), task.id];
}

export type ChildMessage =
  | ({ type: 'progress' } & Pick<ProgressEvent, 'fraction' | 'step'>)
  | { type: 'done'; result?: unknown; maxRssKib?: number }
  | {
      type: 'error';
      message: string;
      code?: string;
      params?: Record<string, unknown>;
      /** The child's peak RSS (process.resourceUsage().maxRSS) when it reports its outcome. */
      maxRssKib?: number;
    };

export class ChildProcessFailure extends Error {}

const childEntry = fileURLToPath(new URL('./runner-child.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * Runs a heavy task in a child Node process (runner-child.ts bootstraps it and imports the task's entry) so a WebAssembly out-of-memory abort (scran.js) or a
 * crash takes down only the child. The V8 heap is capped at the memory budget; progress comes
 * back over IPC; aborting the signal (suspend, expiry, shutdown) kills the child.
 */
export function runInChild(
  task: ChildTask,
  opts: {
    config: Config;
    signal?: AbortSignal;
    memoryBytes: number;
    onProgress?: (fraction: number, step: string) => Promise<void>;
  },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const heapMb = Math.max(256, Math.floor(opts.memoryBytes / 1024 / 1024));
    // issue 34: a span from fork to exit under the job's span, the trace passed on, peak RSS
    const telemetry = childTelemetry(childArgs(task)[0]!, task.id);
    let maxRssKib: number | undefined;
    const child = fork(childEntry, childArgs(task), {
      execArgv: ['--import', tsxLoader, `--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // freed buffers leave the RSS (engine malloc-tunables.ts: ~100–150 MB lower peak at 100k cells)
      env: { ...withMallocTunables(process.env), ...telemetry.env },
    });
    let settled = false;
    let doneReceived = false;
    let progressChain = Promise.resolve();
    const finish = (err: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      if (child.connected) child.disconnect();
      if (child.exitCode === null) child.kill('SIGKILL');
      telemetry.done(maxRssKib, err ?? undefined);
      if (err) reject(err);
      else resolve(value);
    };
    const onAbort = () =>
      finish(
        new ChildProcessFailure('The job was stopped (suspended, timed out or the worker is shutting down).'),
      );
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort);
    child.on('message', (m: ChildMessage) => {
      if (m.type !== 'progress') maxRssKib = m.maxRssKib;
      if (m.type === 'progress' && opts.onProgress) {
        progressChain = progressChain
          .then(() => opts.onProgress!(m.fraction, m.step))
          .catch((e: Error) => finish(e));
      } else if (m.type === 'done') {
        doneReceived = true;
        void progressChain.then(() => finish(null, m.result));
      } else if (m.type === 'error') {
        // Engine errors (validation, empty filter result, …) are deterministic: retrying cannot
        // help, and their code selects a translated message.
        // Task errors (TaskError of an analysis task, code `task.<key>`) are user-facing too.
        const engine = m.code && (engineErrorCodes as readonly string[]).includes(m.code);
        const task = m.code?.startsWith('task.');
        finish(
          engine
            ? new PermanentJobError(m.message, `engine.${m.code}`, m.params ?? {})
            : task
              ? new PermanentJobError(m.message, m.code, m.params ?? {})
              : new ChildProcessFailure(m.message),
        );
      }
    });
    child.on('error', (e) => finish(e));
    child.on('exit', (code, sig) => {
      if (doneReceived) return;
      finish(
        new ChildProcessFailure(
          `The analysis process ended unexpectedly (${sig ?? `exit code ${code}`}); it may have run out of memory.`,
        ),
      );
    });
    child.send({ entry: task.entry.href, input: task.input, config: opts.config });
  });
}
