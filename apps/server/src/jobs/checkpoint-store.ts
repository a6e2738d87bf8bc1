import { Readable } from 'node:stream';
import { engineVersion, type CheckpointOptions } from '@cellcloud/engine';
import type { Storage } from '../storage/storage';
import type { ChildIo } from './runner-child-process';

/** The one object a job's checkpoint is kept in (storage `put` replaces it atomically). */
export const CHECKPOINT_FILE = 'state.ckpt';

/**
 * The engine's checkpoint store over the job's storage (child side, issue 34): the last
 * checkpoint of an analysis is `<prefix>state.ckpt`, replaced atomically after each finished step
 * and streamed from the engine's buffers (no copy of the state is made). The key is the job's
 * result cache key plus the running engine's identity, so a worker with another engine never
 * reuses it. The worker removes the prefix when the job completes or fails for good. A failed
 * save is logged and the run goes on (the job then resumes from an earlier step, or the start).
 */
export function storageCheckpoints(
  storage: Storage,
  at: { prefix: string; key: string },
  io: Pick<ChildIo, 'progress'>,
): CheckpointOptions {
  const key = `${at.key}|${engineVersion()}`;
  const file = `${at.prefix}${CHECKPOINT_FILE}`;
  return {
    key,
    store: {
      async load() {
        if (!(await storage.stat(file))) return undefined;
        io.progress(0.02, 'resume');
        return storage.getBytes(file);
      },
      async save(parts, info) {
        const started = performance.now();
        try {
          const chunks = parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
          await storage.put(file, Readable.from(chunks, { objectMode: false }));
          process.stderr.write(
            `[checkpoint] after ${info.step}: ${(info.bytes / 2 ** 20).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms\n`,
          );
        } catch (e) {
          process.stderr.write(`[checkpoint] after ${info.step} not saved: ${(e as Error).message}\n`);
        }
      },
    },
  };
}
