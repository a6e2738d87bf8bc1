import type {
  CreateShareBody,
  DatasetRole,
  SharedDatasetView,
  ShareRole,
  ShareView,
} from '@cellcloud/contracts/sharing';
import type { AppContext, AuthUser } from '../../context';
import { datasetSharesRepo, type ShareRow } from '../../db/repos/dataset-shares';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { datasetAccess } from './access';

/**
 * Use cases of sharing an analysis (issue 35, docs/product/sharing.md): the owner shares a
 * completed analysis with another user by user name or e-mail as viewer or editor, changes the
 * role or revokes it; the invitee is notified (the web renders the notification in the reader's
 * language) and finds the analysis under My Analyses → Shared with me.
 */
function toView(r: ShareRow): ShareView {
  return {
    id: r.id,
    datasetId: r.dataset_id,
    role: r.role,
    user: { id: r.user_id, username: r.username, email: r.email },
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

async function shareOf(ctx: AppContext, datasetId: string, shareId: string): Promise<ShareRow> {
  const row = await datasetSharesRepo.get(ctx.db, datasetId, shareId);
  if (!row) throw new AppError('NOT_FOUND', {}, 'sharing.notFound');
  return row;
}

export async function createShare(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: CreateShareBody,
): Promise<ShareView> {
  const { job } = await datasetAccess(ctx, user, datasetId, 'owner');
  if (job.status !== 'completed') throw new AppError('CONFLICT', { status: job.status }, 'explore.notReady');
  const login = body.user.trim();
  const invitee = login.includes('@')
    ? await usersRepo.byEmail(ctx.db, login)
    : await usersRepo.byUsername(ctx.db, login);
  if (!invitee || invitee.disabled_at)
    throw new AppError('VALIDATION_FAILED', { user: login }, 'sharing.user.notFound');
  if (invitee.id === job.user_id) throw new AppError('VALIDATION_FAILED', {}, 'sharing.user.self');
  const row = await datasetSharesRepo.insert(ctx.db, {
    datasetId,
    ownerId: job.user_id,
    userId: invitee.id,
    role: body.role,
  });
  if (!row) throw new AppError('NAME_EXISTS', { user: invitee.username }, 'sharing.exists');
  const owner = await usersRepo.byId(ctx.db, job.user_id);
  await ctx.notifications.create(
    invitee.id,
    'share.received',
    { owner: owner?.username ?? '', jobName: job.job_name, role: body.role, datasetId },
    datasetId,
  );
  return toView(row);
}

export async function listShares(ctx: AppContext, user: AuthUser, datasetId: string): Promise<ShareView[]> {
  await datasetAccess(ctx, user, datasetId, 'owner');
  return (await datasetSharesRepo.list(ctx.db, datasetId)).map(toView);
}

export async function updateShare(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  shareId: string,
  role: ShareRole,
): Promise<ShareView> {
  await datasetAccess(ctx, user, datasetId, 'owner');
  const row = await shareOf(ctx, datasetId, shareId);
  await datasetSharesRepo.setRole(ctx.db, row.id, role);
  return toView(await shareOf(ctx, datasetId, shareId));
}

/** Revokes a share: the next request of the former invitee answers 404. */
export async function deleteShare(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  shareId: string,
): Promise<void> {
  await datasetAccess(ctx, user, datasetId, 'owner');
  await datasetSharesRepo.delete(ctx.db, (await shareOf(ctx, datasetId, shareId)).id);
}

/** Analyses other users shared with the caller, with their owners' names. */
export async function sharedWithMe(ctx: AppContext, user: AuthUser): Promise<SharedDatasetView[]> {
  return (await datasetSharesRepo.received(ctx.db, user.id)).map((r) => ({
    shareId: r.id,
    datasetId: r.dataset_id,
    jobName: r.job_name,
    species: r.species,
    role: r.role,
    owner: { id: r.owner_id, username: r.owner_name },
    sharedAt: new Date(r.created_at).toISOString(),
  }));
}

/** The caller's role on a dataset (the explorer shows or hides saving). */
export async function myRole(ctx: AppContext, user: AuthUser, datasetId: string): Promise<DatasetRole> {
  return (await datasetAccess(ctx, user, datasetId, 'read')).role;
}
