import { LIMITS } from '@cellcloud/contracts/constants';
import { childAnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { ChildTaskView, SubclusterBody } from '@cellcloud/contracts/explore-deg';
import type { AppContext, AuthUser } from '../../context';
import { exploreChildTasksRepo, type ChildTaskRow } from '../../db/repos/explore-child-tasks';
import { exploreSubsetsRepo } from '../../db/repos/explore-subsets';
import { jobsRepo } from '../../db/repos/jobs';
import { AppError } from '../../errors';
import { artifactPrefix, writableArtifactPrefix } from './results';
import { groupingOf } from './subsets';
import './deg-messages';
import { childCellsKey } from '../../storage/keys';

/**
 * Sub-celltype analysis (docs/product/entities.md#child-analysis-parameters, docs/product/validation.md): the cells of some labels of a subset (≥ 100) become a child
 * analysis job (`analysis.subcluster`) linked to its parent; the subset then has a child task.
 */
export { childCellsKey };

function toChildView(r: ChildTaskRow): ChildTaskView {
  return {
    childId: r.child_job_id,
    parentId: r.parent_job_id,
    subsetId: r.subset_id,
    jobName: r.job_name ?? '',
    labels: r.labels,
    nCells: r.n_cells,
    status: r.status ?? 'deleted',
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export async function startSubcluster(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  input: SubclusterBody,
): Promise<ChildTaskView> {
  const prefix = await writableArtifactPrefix(ctx, user, datasetId);
  if (!input.key.startsWith('subset:'))
    throw new AppError('VALIDATION_FAILED', { key: input.key }, 'explore.subcluster.copyFirst');
  const subsetId = input.key.slice(7);
  const subset = await exploreSubsetsRepo.get(ctx.db, datasetId, subsetId);
  if (!subset) throw new AppError('NOT_FOUND', {}, 'explore.subset.notFound');
  const labels = input.labels ?? [];
  const unknown = labels.filter((l) => !subset.labels.includes(l));
  if (unknown.length)
    throw new AppError(
      'VALIDATION_FAILED',
      { key: subset.name, labels: unknown.join(', ') },
      'explore.labels.unknown',
    );
  const src = await groupingOf(ctx, prefix, datasetId, input.key);
  const want = new Set((labels.length ? labels : src.labels).map((l) => src.labels.indexOf(l)));
  const cells: number[] = [];
  src.codes.forEach((k, c) => {
    if (want.has(k)) cells.push(c);
  });
  if (cells.length < LIMITS.subclusterMinCells)
    throw new AppError(
      'VALIDATION_FAILED',
      { cells: cells.length, min: LIMITS.subclusterMinCells },
      'explore.subcluster.tooFewCells',
    );
  const parent = (await jobsRepo.get(ctx.db, datasetId))!;
  const params = childAnalysisParams.parse({ ...input.params, taskMode: 'subcluster', clusters: labels });
  const jobName = `${parent.job_name}_${subset.name}`.slice(0, 120);
  const child = await jobsRepo.insert(ctx.db, {
    userId: parent.user_id, // a shared analysis's child stays the owner's (storage, quotas)
    jobName,
    kind: parent.kind,
    species: parent.species,
    sampleIds: parent.sample_ids,
    params,
    draft: { parentId: datasetId, subsetId, labels, childParams: params },
    cacheKey: null,
  });
  await ctx.storage.put(childCellsKey(datasetId, child.id), new Uint8Array(Uint32Array.from(cells).buffer));
  await exploreChildTasksRepo.insert(ctx.db, {
    childJobId: child.id,
    parentJobId: datasetId,
    subsetId,
    userId: parent.user_id,
    labels,
    nCells: cells.length,
  });
  const bossId = await ctx.queue.send('analysis.subcluster', { jobId: child.id });
  await jobsRepo.markQueued(ctx.db, child.id, 'analysis.subcluster', bossId);
  return toChildView((await exploreChildTasksRepo.get(ctx.db, child.id))!);
}

export async function listChildTasks(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
): Promise<ChildTaskView[]> {
  await artifactPrefix(ctx, user, datasetId);
  return (await exploreChildTasksRepo.listByParent(ctx.db, datasetId)).map(toChildView);
}
