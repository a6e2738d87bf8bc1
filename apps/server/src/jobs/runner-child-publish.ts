import type { AppContext } from '../context';
import { resultsPrefix, stagingPrefix } from '../services/jobs-view';
import { runInChild, type ChildTask } from './runner-child-process';
import { JobSuperseded, type Tracked } from './runner-tracked';

/**
 * Runs a result-producing task in the memory-capped child process, writing to a fresh staging
 * prefix of this attempt, then publishes it atomically as `results/<jobId>/` — unless the job row
 * was taken over meanwhile (then the staging is dropped and JobSuperseded thrown). Shared by
 * `analysis.run` and `analysis.subcluster`; `task` receives the staging prefix to write to.
 * Returns the child's result.
 */
export async function runChildAndPublish(
  ctx: AppContext,
  t: Tracked,
  task: (outPrefix: string) => ChildTask,
): Promise<unknown> {
  const staging = stagingPrefix(t.row.id, t.attempt);
  await ctx.storage.delete(staging);
  const result = await runInChild(task(staging), {
    config: ctx.config,
    signal: t.signal,
    memoryBytes: ctx.config.workerMemoryBytes,
    onProgress: (f, step) => t.progress(f, step),
  });
  await t.progress(0.97, 'publish');
  if (!(await t.stillOurs())) {
    await ctx.storage.delete(staging);
    throw new JobSuperseded(t.row.id);
  }
  await ctx.storage.delete(resultsPrefix(t.row.id));
  await ctx.storage.movePrefix(staging.slice(0, -1), resultsPrefix(t.row.id).slice(0, -1));
  return result;
}
