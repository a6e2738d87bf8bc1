import type { AppContext } from '../context';
import { exploreDegTasksRepo, setSubsetClusterGenes, type DegTaskRow } from '../db/repos/explore-deg-tasks';

/**
 * Ends a DE task (and the cluster-gene state of its subset): by the `analysis.deg` job when it
 * completes or fails, and by the request (services/explore/deg-tasks.ts) when it cannot be queued.
 */
export async function finishDegTask(
  ctx: AppContext,
  row: DegTaskRow,
  status: 'completed' | 'failed',
  message: string | null,
): Promise<void> {
  const done = await exploreDegTasksRepo.finish(ctx.db, row.id, status, message);
  if (done?.grouping?.startsWith('subset:'))
    await setSubsetClusterGenes(
      ctx.db,
      row.dataset_id,
      done.grouping.slice(7),
      status === 'completed' ? 'done' : 'failed',
    );
}
