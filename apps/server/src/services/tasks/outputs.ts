import { taskOutputs, type TaskOutputs } from '@cellcloud/contracts/tasks/define';
import type { AppContext } from '../../context';
import type { TaskRow } from '../../db/repos/analysis-tasks';

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
