import { taskOutputs, type TaskOutputs } from '@cellcloud/contracts/tasks/define';
import type { AppContext } from '../../context';
import { analysisTasksRepo, type TaskRow } from '../../db/repos/analysis-tasks';

/**
 * A completed run's `outputs.json` (undefined while it has none). Apart from tasks.ts so that the
 * explorer's obs columns (explorer-obs.ts), which the defaults read through the annotation levels,
 * do not import the task service back.
 */
export async function outputsOf(ctx: AppContext, row: TaskRow): Promise<TaskOutputs | undefined> {
  const key = `${row.output_prefix}outputs.json`;
  if (!(await ctx.storage.stat(key))) return undefined;
  return taskOutputs.parse(JSON.parse(new TextDecoder().decode(await ctx.storage.getBytes(key))));
}

/** A completed run of the dataset with its outputs. */
export interface CompletedTask {
  row: TaskRow;
  outputs: TaskOutputs;
}

/** The dataset's completed runs that have outputs, oldest first (a newer run of a key wins downstream). */
export async function completedWithOutputs(ctx: AppContext, datasetId: string): Promise<CompletedTask[]> {
  const out: CompletedTask[] = [];
  for (const row of await analysisTasksRepo.completedOfResult(ctx.db, datasetId)) {
    const outputs = await outputsOf(ctx, row).catch(() => undefined);
    if (outputs) out.push({ row, outputs });
  }
  return out;
}
