import { fork } from 'node:child_process';
import { engineErrorCodes } from '@cellcloud/engine/errors';
import { PermanentJobError } from './runner-tracked';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config } from '../config';

/** What the parent asks a child to compute (see runner-child.ts). */
export type ChildTask =
  | {
      kind: 'analysis';
      jobId: string;
      species: string;
      samples: { name: string; group: string; datasetKey: string }[];
      params: unknown;
      outPrefix: string;
    }
  | {
      kind: 'preprocess';
      draftId: string;
      samples: { name: string; datasetKey: string }[];
      params: unknown;
      outKey: string;
    }
  | {
      /** Explorer DE on a stored result: rows (JSON) to `outKey`. */
      kind: 'deg';
      taskId: string;
      h5adKey: string;
      /** Int32 per cell: group index, -1 = not in the grouping (compare: 0 = A, 1 = B). */
      codesKey: string;
      mode: 'cluster-markers' | 'compare';
      labels: string[];
      outKey: string;
    }
  | {
      /** Sub-celltype analysis: the parent's stored counts restricted to the cells at `cellsKey`. */
      kind: 'subcluster';
      jobId: string;
      name: string;
      h5adKey: string;
      /** Uint32 parent cell indices. */
      cellsKey: string;
      parentParams: unknown;
      child: unknown;
      outPrefix: string;
    }
  | { kind: 'noop'; sleepMs: number };

/** What `ps` shows after the child's entry: the task kind and its job/task/draft id. */
function childArgs(task: ChildTask): string[] {
  if (task.kind === 'noop') return [task.kind];
  const id = task.kind === 'preprocess' ? task.draftId : task.kind === 'deg' ? task.taskId : task.jobId;
  return [task.kind, id];
}

export type ChildMessage =
  | { type: 'progress'; fraction: number; step: string }
  | { type: 'done'; result?: unknown }
  | { type: 'error'; message: string; code?: string; params?: Record<string, unknown> };

export class ChildProcessFailure extends Error {}

const childEntry = fileURLToPath(new URL('./runner-child.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * Runs a heavy task in a child Node process so a WebAssembly out-of-memory abort (scran.js) or a
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
    const child = fork(childEntry, childArgs(task), {
      execArgv: ['--import', tsxLoader, `--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
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
        const engine = m.code && (engineErrorCodes as readonly string[]).includes(m.code);
        finish(
          engine
            ? new PermanentJobError(m.message, `engine.${m.code}`, m.params ?? {})
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
    child.send({ task, config: opts.config });
  });
}
