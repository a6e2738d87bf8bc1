import type { AppContext } from '../context';
import { analysisTasksRepo } from '../db/repos/analysis-tasks';
import { exploreSubsetsRepo } from '../db/repos/explore-subsets';
import { outputsOf } from '../services/tasks/outputs';
import { subsetCodesKey } from '../storage/keys';
import type { ExtraObsSource } from './extra-obs';

/**
 * Per-cell columns of a dataset besides its h5ad (extra-obs.ts): its subsets / saved levels, then
 * the columns of its completed tasks in the order they finished (`exceptTaskId`: a task's own run).
 */
export async function extraObsSources(
  ctx: AppContext,
  datasetId: string,
  exceptTaskId?: string,
): Promise<ExtraObsSource[]> {
  const out: ExtraObsSource[] = [];
  for (const s of await exploreSubsetsRepo.list(ctx.db, datasetId)) {
    out.push({
      key: `subset:${s.id}`,
      kind: 'subset',
      codesKey: subsetCodesKey(datasetId, s.id),
      labels: s.labels,
      name: s.name,
    });
  }
  for (const t of await analysisTasksRepo.completedOfResult(ctx.db, datasetId)) {
    if (t.id === exceptTaskId) continue;
    const outputs = await outputsOf(ctx, t).catch(() => undefined);
    for (const o of outputs?.obs ?? []) {
      const fileKey = t.output_prefix + o.file;
      out.push(
        o.kind === 'numeric'
          ? { key: o.key, kind: 'numeric', fileKey }
          : { key: o.key, kind: 'categorical', fileKey, dtype: o.dtype, labels: o.labels },
      );
    }
  }
  return out;
}
