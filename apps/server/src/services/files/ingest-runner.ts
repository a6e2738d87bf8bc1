import type { JobName, JobPayload } from '@cellcloud/contracts';

/**
 * A minimal in-process job runner with the queue's interface (`enqueue(name, payload)`), used
 * for `dataset.ingest` while the application has no job queue wired (`ctx.queue`). Jobs run one
 * at a time in arrival order; `idle()` resolves when nothing is queued or running.
 */
export interface JobRunner {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void>;
  idle(): Promise<void>;
}

export function inProcessRunner(
  handlers: { [N in JobName]?: (payload: JobPayload<N>) => Promise<void> },
  onError: (e: unknown) => void,
): JobRunner {
  let tail: Promise<void> = Promise.resolve();
  return {
    async enqueue(name, payload) {
      const handler = handlers[name] as ((p: typeof payload) => Promise<void>) | undefined;
      if (!handler) throw new Error(`no in-process handler for job ${name}`);
      tail = tail.then(() => handler(payload).catch(onError));
    },
    idle: () => tail,
  };
}
