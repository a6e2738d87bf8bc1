import type { DatasetRole } from '@cellcloud/contracts/sharing';
import type { AppContext, AuthUser } from '../../context';
import { datasetSharesRepo } from '../../db/repos/dataset-shares';
import { jobsRepo, type JobRow } from '../../db/repos/jobs';
import { AppError } from '../../errors';
import './messages';

/**
 * What a call needs of a user's analysis (docs/product/sharing.md#roles):
 *  - `read`: explore, read artifacts, subsets, tasks, the methods report, download — owner, editor, viewer;
 *  - `write`: save annotation levels and subsets, run or delete tasks, DE, sub-clustering — owner, editor;
 *  - `owner`: manage the shares — the owner only.
 */
export type DatasetNeed = 'read' | 'write' | 'owner';

/**
 * The one access check of every dataset-scoped call (issue 35). The owner (or an administrator)
 * may do anything; a share gives its role. Anyone else gets 404, exactly like a missing id, so
 * another user cannot tell an analysis from nothing — and a revoked share is gone at the next
 * request (the share is read every time, nothing is cached). A viewer who tries to change the
 * dataset gets 403 with a translated message; a shared user managing shares too.
 */
export async function datasetAccess(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  need: DatasetNeed,
): Promise<{ job: JobRow; role: DatasetRole }> {
  const job = await jobsRepo.get(ctx.db, datasetId);
  if (!job) throw new AppError('NOT_FOUND');
  const role: DatasetRole | undefined =
    job.user_id === user.id || user.isAdmin
      ? 'owner'
      : await datasetSharesRepo.roleOf(ctx.db, datasetId, user.id);
  if (!role) throw new AppError('NOT_FOUND');
  if (need === 'owner' && role !== 'owner') throw new AppError('FORBIDDEN', {}, 'sharing.ownerOnly');
  if (need === 'write' && role === 'viewer') throw new AppError('FORBIDDEN', {}, 'sharing.viewerReadOnly');
  return { job, role };
}
