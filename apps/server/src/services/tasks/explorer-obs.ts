import type { TaskOutputs } from '@cellcloud/contracts/tasks/define';
import type { AppContext } from '../../context';
import { analysisTasksRepo } from '../../db/repos/analysis-tasks';
import { outputsOf } from './outputs';

/** A per-cell column of a completed task, with the task that wrote it and its storage key. */
export interface TaskObsColumn {
  obs: TaskOutputs['obs'][number];
  taskId: string;
  fileKey: string;
}

/** The per-cell columns of the dataset's completed tasks by key; of two tasks with the same key the newer wins. */
export async function taskObsColumns(
  ctx: AppContext,
  datasetId: string,
): Promise<Map<string, TaskObsColumn>> {
  const out = new Map<string, TaskObsColumn>();
  for (const t of await analysisTasksRepo.completedOfResult(ctx.db, datasetId)) {
    const outputs = await outputsOf(ctx, t).catch(() => undefined);
    for (const o of outputs?.obs ?? [])
      out.set(o.key, { obs: o, taskId: t.id, fileKey: t.output_prefix + o.file });
  }
  return out;
}

/**
 * The explorer's manifest.json with the per-cell columns of the dataset's completed tasks
 * appended to `obs` (issue 11): they become colour-by options and annotation levels like the
 * analysis' own. Their `file` points at the task's files route relative to the artifacts URL
 * (`../tasks/<taskId>/files/obs/<key>.f32`), which the browser resolves. A key already present
 * keeps the analysis' column; of two tasks with the same key the newer one wins.
 */
export async function manifestWithTaskObs(
  ctx: AppContext,
  datasetId: string,
  bytes: Uint8Array,
): Promise<Uint8Array> {
  const columns = await taskObsColumns(ctx, datasetId);
  if (!columns.size) return bytes;
  const m = JSON.parse(new TextDecoder().decode(bytes)) as { obs: { key: string; file: string }[] };
  const own = new Set(m.obs.map((o) => o.key));
  const added = new Map<string, { key: string; file: string }>();
  for (const [key, c] of columns) {
    if (!own.has(key)) added.set(key, { ...c.obs, file: `../tasks/${c.taskId}/files/${c.obs.file}` });
  }
  if (!added.size) return bytes;
  m.obs.push(...added.values());
  return new TextEncoder().encode(JSON.stringify(m));
}
