import type { AdminJobView, AdminStorageView } from '@cellcloud/contracts/admin';
import type { AppContext, AuthUser } from '../../context';
import { adminRepo, type AdminJobRow } from '../../db/repos/admin';
import { jobsRepo } from '../../db/repos/jobs';
import { publicIngestsRepo, type PublicIngestRow } from '../../db/repos/public-ingests';
import { AppError } from '../../errors';
import { resultsPrefix, videoKey } from '../../storage/keys';
import { recordAudit } from './audit';

/** What an analysis job row and a public ingest row show alike: state and times. */
function stateView(r: AdminJobRow | PublicIngestRow) {
  return {
    id: r.id,
    status: r.status,
    progress: r.progress,
    step: r.step,
    message: r.message,
    submittedAt: new Date(r.submitted_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

function jobView(r: AdminJobRow): AdminJobView {
  return {
    ...stateView(r),
    kind: 'analysis',
    analysisId: r.analysis_id,
    jobName: r.job_name,
    username: r.username ?? r.user_id,
  };
}

/** A public database ingest (issue 20) as a row of the jobs overview (no owner: the admin tool). */
function ingestView(r: PublicIngestRow): AdminJobView {
  return {
    ...stateView(r),
    kind: 'publicIngest',
    analysisId: `public:${r.dataset_id} v${r.version}`,
    jobName: 'public.ingest',
    username: '—',
  };
}

/** Running (or waiting) jobs, or failed ones with their reasons, of every user; public ingests too. */
export async function adminListJobs(ctx: AppContext, status: 'running' | 'error'): Promise<AdminJobView[]> {
  const statuses = status === 'running' ? ['submitted', 'queued', 'running'] : ['error'];
  return [
    ...(await publicIngestsRepo.byStatus(ctx.db, statuses)).map(ingestView),
    ...(await adminRepo.jobs(ctx.db, statuses)).map(jobView),
  ];
}

/**
 * Re-queue a failed job / cancel a running one through the jobs service, acting for the job's
 * owner (same state checks and queue handling as the user's own resume / suspend).
 */
export async function adminJobAction(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  action: 'requeue' | 'cancel',
): Promise<AdminJobView> {
  const row = await jobsRepo.get(ctx.db, id);
  const jobs = ctx.services.jobs?.jobs;
  if (!row || !jobs) throw new AppError('NOT_FOUND');
  const owner: AuthUser = {
    id: row.user_id,
    username: '',
    isAdmin: false,
    privileges: new Set(),
    blockedPrivileges: new Set(),
  };
  if (action === 'requeue') {
    if (row.status !== 'error') throw new AppError('CONFLICT', { detail: row.status }, 'jobs.cannotResume');
    await jobs.resume(owner, id);
  } else await jobs.suspend(owner, id);
  await recordAudit(ctx.db, admin, action === 'requeue' ? 'job.requeue' : 'job.cancel', row.job_name, {
    jobId: id,
  });
  const fresh = (await adminRepo.jobs(ctx.db, [(await jobsRepo.get(ctx.db, id))!.status])).find(
    (j) => j.id === id,
  )!;
  return jobView(fresh);
}

/** Bytes of the results each user's analyses own (cached copies share their source's files). */
export async function resultBytesByUser(ctx: AppContext): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const j of await adminRepo.resultJobs(ctx.db)) {
    const n = await ctx.storage.usage(resultsPrefix(j.id));
    out.set(j.user_id, (out.get(j.user_id) ?? 0) + n);
  }
  return out;
}

/**
 * Storage by user and kind: uploads (originals + parsed datasets), analysis results, converted
 * downloads; plus the tutorial videos (stored under videos/, admin-owned, in no user's quota).
 */
export async function adminStorage(ctx: AppContext): Promise<AdminStorageView> {
  const [users, results, videos] = await Promise.all([
    adminRepo.users(ctx.db, undefined),
    resultBytesByUser(ctx),
    ctx.storage.usage(videoKey('')),
  ]);
  const rows = users.map((u) => {
    const uploads = Number(u.upload_bytes);
    const downloads = Number(u.download_bytes);
    const res = results.get(u.id) ?? 0;
    return {
      userId: u.id,
      username: u.username,
      uploads,
      results: res,
      downloads,
      total: uploads + res + downloads,
    };
  });
  rows.sort((a, b) => b.total - a.total);
  const sum = (k: 'uploads' | 'results' | 'downloads') => rows.reduce((s, r) => s + r[k], 0);
  return {
    totals: { uploads: sum('uploads'), results: sum('results'), downloads: sum('downloads'), videos },
    users: rows,
  };
}
