import { randomUUID } from 'node:crypto';
import type { DownloadKind, DownloadView } from '@cellcloud/contracts/downloads';
import { DOWNLOADS_API } from '@cellcloud/contracts/downloads';
import type { AppContext, AuthUser } from '../../context';
import type { Locale } from '@cellcloud/contracts';
import { downloadsRepo, type DownloadRow } from '../../db/repos/downloads';
import { jobsRepo } from '../../db/repos/jobs';
import { usersRepo } from '../../db/repos/users';
import { privilegesOfPlan } from '../plans/user-privileges';
import { datasetAccess } from '../sharing/access';
import { AppError } from '../../errors';
import { recordAudit } from '../admin/audit';
import { assertStorageAvailable } from '../files/quota';
import { resultsPrefix } from '../jobs-view';
import './messages';
import { signLink } from './signing';

/**
 * Use cases of requested downloads (contracts/downloads.ts): request (auto-approved with the
 * `downloadFreeFile` privilege), list per tab, the admin's approve / decline, and the export job
 * queued on approval. Another user's ids are 404.
 */
export const SOURCE_FILE: Record<DownloadKind, string> = {
  h5ad: 'analysis.h5ad',
  seurat: 'analysis.h5ad',
  markers: 'markers.csv',
  // the tables zip starts from the marker table; the figures from the explorer artifacts
  tables: 'markers.csv',
  figures: 'artifacts/manifest.json',
};
const FILE_NAME: Record<DownloadKind, (job: string) => string> = {
  h5ad: (j) => `${j}.h5ad`,
  seurat: (j) => `${j}_seurat.zip`,
  markers: (j) => `${j}_markers.csv`,
  tables: (j) => `${j}_tables.zip`,
  figures: (j) => `${j}_figures.zip`,
};
/**
 * Bytes a converted file is expected to take, checked against the quota when asking: the source's
 * size (tables: the CSVs plus the workbook, about twice the marker table); the figures zip is
 * bounded by its figure count rather than by the source, so a flat allowance.
 */
const FIGURES_ESTIMATE_BYTES = 20 * 1024 * 1024;
const expectedBytes = (kind: DownloadKind, sourceBytes: number) =>
  kind === 'figures' ? FIGURES_ESTIMATE_BYTES : kind === 'tables' ? 2 * sourceBytes : sourceBytes;

export const downloadKey = (id: string, fileName: string) => `downloads/${id}/${fileName}`;

export async function sourceKeyOf(ctx: AppContext, jobId: string, kind: DownloadKind): Promise<string> {
  const job = await jobsRepo.get(ctx.db, jobId);
  if (!job) throw new AppError('NOT_FOUND');
  return `${resultsPrefix(job.result_of ?? job.id)}${SOURCE_FILE[kind]}`;
}

async function toView(ctx: AppContext, r: DownloadRow, admin = false): Promise<DownloadView> {
  const live =
    r.status === 'approved' &&
    r.export_state === 'ready' &&
    r.expires_at &&
    r.expires_at.getTime() > Date.now();
  let url: string | null = null;
  // tied to the session of the request being served (signing.ts); none outside a request
  const link = live ? await signLink(ctx, r.id, r.expires_at!) : undefined;
  if (link) url = `${DOWNLOADS_API.file(r.id)}?exp=${link.exp}&sig=${link.sig}&sid=${link.sid}`;
  return {
    id: r.id,
    datasetId: r.job_id,
    jobName: r.job_name,
    kind: r.kind,
    fileName: r.file_name,
    status: r.status,
    exportState: r.export_state,
    fileSize: r.file_size === null ? null : Number(r.file_size),
    validDays: r.valid_days,
    requestedAt: r.created_at.toISOString(),
    decidedAt: r.decided_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
    declineReason: r.decline_reason,
    url,
    ...(admin ? { username: r.username } : {}),
  };
}

async function queueExport(ctx: AppContext, id: string): Promise<void> {
  await ctx.queue.send('download.export', { requestId: id });
}

/**
 * Is the file given at once, without an administrator's approval (`downloadFreeFile`)? A shared
 * analysis is downloaded on its owner's plan, as its storage is counted against the owner
 * (docs/product/sharing.md): the privilege of the owner's plan decides, not the requester's.
 */
async function freeDownload(ctx: AppContext, user: AuthUser, ownerId: string): Promise<boolean> {
  if (ownerId === user.id)
    return user.privileges.has('downloadFreeFile') && !user.blockedPrivileges.has('downloadFreeFile');
  const owner = await usersRepo.byId(ctx.db, ownerId);
  if (!owner) return false;
  return (await privilegesOfPlan(ctx.db, owner.plan_id)).allowed.has('downloadFreeFile');
}

export async function requestDownload(
  ctx: AppContext,
  user: AuthUser,
  body: { datasetId: string; kind: DownloadKind },
  lang: Locale = 'en-US',
): Promise<DownloadView> {
  // the owner or a user it is shared with (viewer or editor); the file counts against the owner's quota
  const { job } = await datasetAccess(ctx, user, body.datasetId, 'read');
  if (job.status !== 'completed')
    throw new AppError('CONFLICT', { status: job.status }, 'downloads.notReady');
  const source = await sourceKeyOf(ctx, job.id, body.kind);
  const st = await ctx.storage.stat(source);
  if (!st) throw new AppError('NOT_FOUND', { kind: body.kind }, 'downloads.noSource');
  // the converted file counts against the quota until it expires
  await assertStorageAvailable(ctx, job.user_id, expectedBytes(body.kind, st.size));
  const free = await freeDownload(ctx, user, job.user_id);
  const id = randomUUID();
  await downloadsRepo.insert(ctx.db, {
    id,
    userId: user.id,
    jobId: job.id,
    kind: body.kind,
    status: free ? 'approved' : 'pending',
    fileName: FILE_NAME[body.kind](job.job_name || job.id.slice(0, 8)),
    validDays: ctx.config.downloadValidDays,
    lang,
  });
  if (free) await queueExport(ctx, id);
  return toView(ctx, (await downloadsRepo.get(ctx.db, id))!);
}

export async function listDownloads(
  ctx: AppContext,
  user: AuthUser,
  tab: 'active' | 'requested' | 'expired',
): Promise<DownloadView[]> {
  const rows = await downloadsRepo.listOfUser(ctx.db, user.id);
  const inTab = (r: DownloadRow) =>
    tab === 'active'
      ? r.status === 'approved'
      : tab === 'requested'
        ? r.status === 'pending' || r.status === 'declined'
        : r.status === 'expired';
  return Promise.all(rows.filter(inTab).map((r) => toView(ctx, r)));
}

export async function getDownload(ctx: AppContext, user: AuthUser, id: string): Promise<DownloadView> {
  const r = await downloadsRepo.get(ctx.db, id);
  if (!r || (r.user_id !== user.id && !user.isAdmin)) throw new AppError('NOT_FOUND');
  return toView(ctx, r);
}

export async function adminListDownloads(ctx: AppContext, pendingOnly: boolean): Promise<DownloadView[]> {
  return Promise.all((await downloadsRepo.listAll(ctx.db, pendingOnly)).map((r) => toView(ctx, r, true)));
}

export async function decideDownload(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<DownloadView> {
  const r = await downloadsRepo.get(ctx.db, id);
  if (!r) throw new AppError('NOT_FOUND');
  const ok = await downloadsRepo.decide(
    ctx.db,
    id,
    decision.approve ? 'approved' : 'declined',
    admin.id,
    decision.approve ? null : decision.reason,
  );
  if (!ok) throw new AppError('CONFLICT', {}, 'downloads.notPending');
  await recordAudit(ctx.db, admin, decision.approve ? 'download.approve' : 'download.decline', r.file_name, {
    requestId: id,
    ...(decision.approve ? {} : { reason: decision.reason }),
  });
  if (decision.approve) await queueExport(ctx, id);
  else {
    await ctx.notifications.create(r.user_id, 'download.declined', {
      name: r.file_name,
      reason: decision.reason,
    });
  }
  return toView(ctx, (await downloadsRepo.get(ctx.db, id))!, true);
}
