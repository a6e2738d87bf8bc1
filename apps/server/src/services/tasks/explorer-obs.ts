import type { AppContext } from '../../context';
import { analysisTasksRepo } from '../../db/repos/analysis-tasks';
import { outputsOf } from './tasks';

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
  const tasks = await analysisTasksRepo.completedOfResult(ctx.db, datasetId);
  if (!tasks.length) return bytes;
  const m = JSON.parse(new TextDecoder().decode(bytes)) as { obs: { key: string; file: string }[] };
  const own = new Set(m.obs.map((o) => o.key));
  const added = new Map<string, { key: string; file: string }>();
  for (const t of tasks) {
    const out = await outputsOf(ctx, t).catch(() => undefined);
    for (const o of out?.obs ?? []) {
      if (!own.has(o.key)) added.set(o.key, { ...o, file: `../tasks/${t.id}/files/${o.file}` });
    }
  }
  if (!added.size) return bytes;
  m.obs.push(...added.values());
  return new TextEncoder().encode(JSON.stringify(m));
}
