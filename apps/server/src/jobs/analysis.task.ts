import { findTask } from '@cellcloud/tasks/contract';
import { TASK_MEMORY } from '@cellcloud/tasks/memory';
import type { AppContext } from '../context';
import { analysisTasksRepo, type TaskRow } from '../db/repos/analysis-tasks';
import { jobsRepo } from '../db/repos/jobs';
import type { JobContext } from '../queue/job-queue';
import { encodeJobMessage } from '../services/jobs-message';
import { resultsPrefix } from '../services/jobs-view';
import type { NotificationsService } from '../services/notifications';
import type { TaskChildInput } from './analysis.task.child';
import { extraObsSources } from './extra-obs-sources';
import type { StoredSource } from './task-source';
import { storedResultLoadBytes, storedResultSize } from './runner-child-budget';
import { sampledLoadBytes, TASK_SAMPLE_MIN_CELLS, taskShape } from './task-sample';
import { childTask, runInChild } from './runner-child-process';
import { PermanentJobError } from './runner-tracked';
import { taskStagingPrefix } from '../storage/keys';

const MiB = 2 ** 20;

/** Where attempt `attempt` of a task writes before the atomic publish to its output prefix. */
export { taskStagingPrefix };

class TaskSuperseded extends Error {}

/** The finished earlier task this one builds on (`params.sourceTaskId`, checked again at run time). */
async function sourceOf(
  ctx: AppContext,
  row: TaskRow,
  dependsOn: readonly string[],
): Promise<StoredSource | undefined> {
  const id = (row.params as { sourceTaskId?: unknown }).sourceTaskId;
  if (typeof id !== 'string') return undefined;
  const src = await analysisTasksRepo.get(ctx.db, id);
  if (src?.dataset_id !== row.dataset_id || src.status !== 'completed' || !dependsOn.includes(src.task))
    throw new PermanentJobError(`source task ${id} is not a finished run`, 'tasks.source', {
      task: dependsOn.join(', '),
    });
  return { task: src.task, prefix: src.output_prefix };
}

/**
 * Job `analysis.task` (issue 11): runs one analysis task of a completed result in the
 * memory-capped child process (`analysis.task.child.ts` → the engine's runTask), writes to a
 * staging prefix of this attempt and publishes atomically to `results/<resultId>/tasks/<taskId>/`.
 * Refused up front when the stored result + the task's estimate exceed WORKER_MEMORY_MB. A
 * TaskError / engine error fails the task at once with its translated key; a crashed or killed
 * child is retried by the queue (the row is re-claimed by the next attempt); the last attempt's
 * failure is `task.common.internal`. Completion and final failure notify the user.
 */
export async function handleAnalysisTask(
  ctx: AppContext,
  notifications: NotificationsService,
  job: JobContext<'analysis.task'>,
): Promise<void> {
  const attempt = job.attempt;
  const row = await analysisTasksRepo.claim(ctx.db, job.data.taskId, attempt);
  if (!row) return; // deleted or already finished
  const dataset = await jobsRepo.get(ctx.db, row.dataset_id);
  // named in each reader's language (services/tasks/messages.ts `tasks.notify.<task>`)
  const analysis = dataset?.job_name ?? row.dataset_id;
  const label = {
    jobName: encodeJobMessage(`tasks.notify.${row.task}`, { analysis }, `${analysis} · ${row.task}`),
    analysisId: dataset?.analysis_id ?? '',
  };
  const fail = async (key: string, params: Record<string, unknown>, english: string) => {
    const failed = await analysisTasksRepo.fail(ctx.db, row.id, key, params);
    if (failed)
      await notifications.create(
        row.user_id,
        'job.failed',
        { ...label, message: encodeJobMessage(key, params, english) },
        row.dataset_id,
      );
  };
  const staging = taskStagingPrefix(row.id, attempt);
  try {
    const def = findTask(row.task);
    // the task folder's light memory.ts: no engine module is loaded in this process
    const estimate = TASK_MEMORY[row.task];
    if (!def || !estimate || !dataset)
      throw new PermanentJobError(`task ${row.task} or its analysis is gone`, 'task.common.internal');
    const prefix = resultsPrefix(row.result_id);
    const size = await storedResultSize(ctx.storage, prefix);
    if (!size)
      throw new PermanentJobError(
        'the stored analysis.h5ad or explorer manifest is missing',
        'task.common.internal',
      );
    const params = def.params.parse(row.params) as never;
    // from TASK_SAMPLE_MIN_CELLS cells the child reads a sample of them (task-sample.ts)
    const need =
      (size.nCells < TASK_SAMPLE_MIN_CELLS ? storedResultLoadBytes(size) : sampledLoadBytes(size)) +
      estimate(taskShape(size), params);
    if (need > ctx.config.workerMemoryBytes) {
      const p = { neededMb: Math.ceil(need / MiB), budgetMb: Math.floor(ctx.config.workerMemoryBytes / MiB) };
      throw new PermanentJobError(
        `needs ${p.neededMb} MB, budget ${p.budgetMb} MB`,
        'task.common.overBudget',
        p,
      );
    }
    await ctx.storage.delete(staging);
    const source = await sourceOf(ctx, row, def.dependsOn ?? []);
    const input: TaskChildInput = {
      task: row.task,
      h5adKey: `${prefix}analysis.h5ad`,
      qcKey: `${size.artifacts}qc.json`,
      species: dataset.species,
      params: row.params,
      uploads: Object.fromEntries(Object.entries(row.uploads).map(([k, u]) => [k, u.key])),
      extraObs: await extraObsSources(ctx, row.dataset_id, row.id),
      resourcesDir: ctx.config.resourcesDir,
      outPrefix: staging,
      ...(source ? { source } : {}),
    };
    let lastWrite = 0;
    await runInChild(childTask(new URL('./analysis.task.child.ts', import.meta.url), row.id, input), {
      config: ctx.config,
      signal: job.signal,
      memoryBytes: ctx.config.workerMemoryBytes,
      onProgress: async (f, step) => {
        const now = Date.now();
        if (now - lastWrite < 250 && f < 1) return;
        lastWrite = now;
        if (!(await analysisTasksRepo.progress(ctx.db, row.id, attempt, Math.min(0.97, f), step)))
          throw new TaskSuperseded();
      },
    });
    const cur = await analysisTasksRepo.get(ctx.db, row.id);
    if (!cur || cur.status !== 'running' || cur.attempt !== attempt) throw new TaskSuperseded();
    await ctx.storage.delete(row.output_prefix);
    await ctx.storage.movePrefix(staging.slice(0, -1), row.output_prefix.slice(0, -1));
    const done = await analysisTasksRepo.complete(ctx.db, row.id, attempt);
    if (done) await notifications.create(row.user_id, 'job.completed', label, row.dataset_id);
  } catch (e) {
    await ctx.storage.delete(staging).catch(() => {});
    if (e instanceof TaskSuperseded) return;
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof PermanentJobError && e.messageKey) return fail(e.messageKey, e.params, message);
    if (job.lastAttempt) {
      if (ctx.config.logLevel !== 'silent') console.error(`[task ${row.id}] ${message}`);
      return fail('task.common.internal', {}, message);
    }
    throw e; // crashed/killed child: the queue retries, the next attempt re-claims the row
  }
}
