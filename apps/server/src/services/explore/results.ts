import { publicIngestsRepo } from '../../db/repos/public-ingests';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../context';
import { AppError } from '../../errors';
import { resultsPrefix } from '../jobs-view';
import { assertPublicAccess } from '../public-datasets/access';
import { datasetAccess, type DatasetNeed } from '../sharing/access';
import './messages';

/** Explorer dataset id of a public database dataset's standard analysis: `public:<catalogue id>`. */
export const PUBLIC_EXPLORE_PREFIX = 'public:';

/** The catalogue id behind a `public:<id>` explorer dataset id, else undefined. */
export function publicDatasetOf(datasetId: string): string | undefined {
  return datasetId.startsWith(PUBLIC_EXPLORE_PREFIX)
    ? datasetId.slice(PUBLIC_EXPLORE_PREFIX.length)
    : undefined;
}

/**
 * A "user dataset" of the explorer is a completed analysis job of the user; its artifacts live
 * under `results/<jobId>/artifacts/` (or under the job it reused, `result_of`). A `public:<id>`
 * dataset is the standard analysis of a visible public database dataset (issue 20), shared by
 * every user with public access (no per-user copy, no quota): `public/<id>/v<version>/artifacts/`.
 * Reading only — calls that change a dataset use `writableArtifactPrefix`. A user's analysis
 * passes the central access check (`datasetAccess`: the owner, or a user it is shared with).
 */
export async function artifactPrefix(ctx: AppContext, user: AuthUser, datasetId: string): Promise<string> {
  const pub = publicDatasetOf(datasetId);
  if (pub !== undefined) {
    assertPublicAccess(user);
    const d = await publicIngestsRepo.explorable(ctx.db, pub);
    if (!d) throw new AppError('NOT_FOUND');
    if (!d.analysed) throw new AppError('CONFLICT', { id: pub }, 'explore.public.notAnalysed');
    return `${d.storagePrefix}artifacts/`;
  }
  return userArtifactPrefix(ctx, user, datasetId, 'read');
}

/** The artifacts of a user's analysis after the central access check (owner, or a share's role). */
async function userArtifactPrefix(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  need: DatasetNeed,
): Promise<string> {
  const { job } = await datasetAccess(ctx, user, datasetId, need);
  if (job.status !== 'completed') throw new AppError('CONFLICT', { status: job.status }, 'explore.notReady');
  return `${resultsPrefix(job.result_of ?? job.id)}artifacts/`;
}

/** Refuses a change (relabel, subsets, DEG, sub-clustering, tasks) to a read-only public dataset: 403. */
export function assertWritableDataset(datasetId: string): void {
  if (publicDatasetOf(datasetId) !== undefined)
    throw new AppError('FORBIDDEN', {}, 'explore.public.readOnly');
}

/**
 * `artifactPrefix` for a call that changes the dataset: a public dataset answers 403 (read-only),
 * so does a viewer of a shared analysis (docs/product/sharing.md#roles).
 */
export async function writableArtifactPrefix(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
): Promise<string> {
  assertWritableDataset(datasetId);
  return userArtifactPrefix(ctx, user, datasetId, 'write');
}

/** Storage key of one artifact file; refuses anything that could leave the artifacts prefix. */
export function artifactKey(prefix: string, rel: string): string {
  const clean = rel.replace(/^\/+/, '');
  if (!clean || clean.split('/').some((p) => p === '' || p === '.' || p === '..') || /[\\\0]/.test(clean)) {
    throw new AppError('VALIDATION_FAILED', { path: rel }, 'explore.badPath');
  }
  return prefix + clean;
}
