import { jobsRepo } from '../../db/repos/jobs';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../context';
import { AppError } from '../../errors';
import { resultsPrefix } from '../jobs-view';
import './messages';

/**
 * A "user dataset" of the explorer is a completed analysis job of the user; its artifacts live
 * under `results/<jobId>/artifacts/` (or under the job it reused, `result_of`).
 */
export async function artifactPrefix(ctx: AppContext, user: AuthUser, datasetId: string): Promise<string> {
  const job = await jobsRepo.get(ctx.db, datasetId);
  if (!job || (job.user_id !== user.id && !user.isAdmin)) throw new AppError('NOT_FOUND');
  if (job.status !== 'completed') throw new AppError('CONFLICT', { status: job.status }, 'explore.notReady');
  return `${resultsPrefix(job.result_of ?? job.id)}artifacts/`;
}

/** Storage key of one artifact file; refuses anything that could leave the artifacts prefix. */
export function artifactKey(prefix: string, rel: string): string {
  const clean = rel.replace(/^\/+/, '');
  if (!clean || clean.split('/').some((p) => p === '' || p === '.' || p === '..') || /[\\\0]/.test(clean)) {
    throw new AppError('VALIDATION_FAILED', { path: rel }, 'explore.badPath');
  }
  return prefix + clean;
}
