import { randomUUID } from 'node:crypto';
import {
  LIMITS,
  analysisParams,
  draftToParams,
  speciesSchema,
  submitDraft,
  type JobKind,
  type Locale,
  type JobView,
  type WizardDraft,
} from '@cellcloud/contracts';
import type { AppContext, AuthUser } from '../context';
import { draftsRepo } from '../db/repos/drafts';
import { exploreChildTasksRepo } from '../db/repos/explore-child-tasks';
import { jobsRepo, type JobRow } from '../db/repos/jobs';
import { AppError } from '../errors';
import type { JobQueue } from '../queue/job-queue';
import { assertStorageAvailable } from './files/quota';
import { currentEngineVersion, resultCacheKey } from './jobs-cache';
import { resolveSamples, sharedSpecies } from './jobs-samples';
import { assertPublicAccess } from './public-datasets/access';
import { resultsPrefix, toJobView } from './jobs-view';
import type { NotificationsService } from './notifications';

/**
 * Analysis jobs of a user: submit from the wizard (validation, result cache, queueing), list,
 * suspend / resume / re-edit / delete. Running them is the worker's business (src/jobs).
 */
export class JobsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly queue: JobQueue,
    private readonly notifications: NotificationsService,
  ) {}

  async submit(user: AuthUser, input: unknown): Promise<JobView> {
    const parsed = submitDraft.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError(
        'VALIDATION_FAILED',
        { detail: issue.path.join('.') },
        issue.message.includes('.') ? issue.message : undefined,
      );
    }
    const draft: WizardDraft = parsed.data;
    // docs/product/errors.md#messages "Storage full": analyses cannot proceed when the user's storage is used up.
    await assertStorageAvailable(this.ctx, user.id);
    // Public database samples (issue 20) need "integrate SynEcoSys data" or "integrate local and SynEcoSys".
    if (draft.datasets.some((d) => d.id.startsWith('public:'))) assertPublicAccess(user);
    const samples = await resolveSamples(this.ctx, user.id, draft.datasets);
    const speciesName = sharedSpecies(samples, draft.param.species);
    const species = speciesSchema.safeParse(speciesName);
    if (!species.success)
      throw new AppError('VALIDATION_FAILED', { detail: speciesName }, 'wizard.species.unsupported');
    const params = analysisParams.parse(draftToParams(draft.param, species.data));
    if (params.ambientRnaRemoval.enabled) {
      const small = samples.filter(
        (s) =>
          s.cells <= LIMITS.ambientMinCells &&
          (params.ambientRnaRemoval.mode === 'default' || params.ambientRnaRemoval.samples.includes(s.id)),
      );
      if (small.length)
        throw new AppError(
          'VALIDATION_FAILED',
          { detail: small.map((s) => s.name).join(', ') },
          'wizard.ambient.tooFewCells',
        );
    }
    if (params.batchEffectRemoval.enabled && samples.length < 2) params.batchEffectRemoval.enabled = false;
    const kind: JobKind = samples.length > 1 ? 'integrated' : 'custom';
    const cacheKey = resultCacheKey(
      {
        samples: samples.map((s) => ({ contentHash: s.contentHash, name: s.name, group: s.group })),
        params,
      },
      currentEngineVersion(this.ctx.config.resourcesDir),
    );
    const row = await jobsRepo.insert(this.ctx.db, {
      userId: user.id,
      jobName: draft.param.jobName.trim(),
      kind,
      species: species.data,
      sampleIds: samples.map((s) => s.id),
      params,
      draft: { ...draft, id: undefined },
      cacheKey,
    });
    if (draft.id) await draftsRepo.delete(this.ctx.db, user.id, draft.id);
    const cached = await jobsRepo.findCompletedByCacheKey(this.ctx.db, user.id, cacheKey);
    if (cached && cached.id !== row.id) {
      const done = await jobsRepo.markCachedCompleted(this.ctx.db, row.id, cached.id);
      await this.notifications.create(
        user.id,
        'job.completed',
        { jobName: done.job_name, analysisId: done.analysis_id },
        done.id,
      );
      return toJobView(done);
    }
    return toJobView(await this.enqueue(row));
  }

  /** Queues a `submitted` row (`system.noop` is the diagnostic stand-in used by the benchmark). */
  async enqueue(
    row: JobRow,
    name: 'analysis.run' | 'analysis.subcluster' | 'system.noop' = 'analysis.run',
    extra: { sleepMs?: number; failTimes?: number } = {},
  ): Promise<JobRow> {
    // The row names its queue job before the job exists, so a worker never sees an unnamed one.
    const bossId = randomUUID();
    await jobsRepo.markQueued(this.ctx.db, row.id, name, bossId);
    try {
      if (name !== 'system.noop') await this.queue.send(name, { jobId: row.id }, { id: bossId });
      else await this.queue.send(name, { jobId: row.id, ...extra }, { id: bossId });
    } catch (e) {
      await jobsRepo.fail(this.ctx.db, row.id, null, `Job unable to submit: ${(e as Error).message}`, true);
      throw e;
    }
    return (await jobsRepo.get(this.ctx.db, row.id))!;
  }

  async list(
    user: AuthUser,
    q: { kind?: JobKind; pageNum: number; pageSize: number; synEcoSysOnly?: boolean },
    locale?: Locale,
  ) {
    const r = await jobsRepo.list(
      this.ctx.db,
      user.id,
      q.kind,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
      q.synEcoSysOnly,
    );
    const now = new Date();
    return { total: r.total, rows: r.rows.map((x) => toJobView(x, now, locale)) };
  }

  async get(user: AuthUser, id: string, locale?: Locale): Promise<JobView> {
    return toJobView(await this.own(user, id), new Date(), locale);
  }

  /** Stops a waiting or running job; a running attempt notices at its next progress report. */
  async suspend(user: AuthUser, id: string): Promise<JobView> {
    const row = await this.own(user, id);
    const done = await jobsRepo.setStatus(this.ctx.db, id, ['submitted', 'queued', 'running'], 'suspended');
    if (!done) throw new AppError('CONFLICT', { detail: row.status }, 'jobs.cannotSuspend');
    if (row.boss_job_id && row.boss_queue) await this.queue.cancel(row.boss_queue, row.boss_job_id);
    return toJobView(done);
  }

  /** Queues a suspended (or failed) job again from the start. */
  async resume(user: AuthUser, id: string): Promise<JobView> {
    const row = await this.own(user, id);
    const back = await jobsRepo.setStatus(this.ctx.db, id, ['suspended', 'error'], 'submitted');
    if (!back) throw new AppError('CONFLICT', { detail: row.status }, 'jobs.cannotResume');
    // A job runs again on the queue it was made for (a sub-celltype child is analysis.subcluster).
    const queue =
      back.boss_queue === 'system.noop' || back.boss_queue === 'analysis.subcluster'
        ? back.boss_queue
        : 'analysis.run';
    return toJobView(await this.enqueue(back, queue));
  }

  /**
   * A diagnostic job row run by `system.noop` through the full lifecycle (benchmark, queue
   * failure tests): `sleepMs` of work reported as progress, the first `failTimes` attempts throw.
   */
  async createDiagnostic(
    userId: string,
    jobName: string,
    opts: { sleepMs?: number; failTimes?: number } = {},
  ): Promise<JobView> {
    const row = await jobsRepo.insert(this.ctx.db, {
      userId,
      jobName,
      kind: 'custom',
      species: 'Homo sapiens',
      sampleIds: [],
      params: {},
      draft: {},
      cacheKey: null,
    });
    return toJobView(await this.enqueue(row, 'system.noop', opts));
  }

  /** Re-edit: a new draft holding the job's wizard state, resumed at step 1. */
  async reedit(user: AuthUser, id: string): Promise<{ draftId: string }> {
    const row = await this.own(user, id);
    // Sub-celltype children are made in the explorer, not the wizard: nothing to re-edit there.
    if (await exploreChildTasksRepo.get(this.ctx.db, id))
      throw new AppError('CONFLICT', {}, 'jobs.childNotEditable');
    const draft = {
      ...(row.draft as WizardDraft),
      stepTag: 1,
      cellFilteringTaskStatus: 'notStarted' as const,
    };
    const saved = await draftsRepo.upsert(this.ctx.db, user.id, undefined, {
      jobName: row.job_name,
      stepTag: 1,
      pageTag: 'myAnalyzes',
      content: draft,
    });
    return { draftId: saved!.id };
  }

  /** Deletes the job and its results (kept while another job shows them as a cached result). */
  async delete(user: AuthUser, id: string): Promise<void> {
    const row = await this.own(user, id);
    if (row.boss_job_id && row.boss_queue && (row.status === 'queued' || row.status === 'running'))
      await this.queue.cancel(row.boss_queue, row.boss_job_id);
    await this.ctx.db.tx(async (q) => {
      await exploreChildTasksRepo.removeChild(q, id);
      await jobsRepo.delete(q, id);
    });
    if (!row.result_of && (await jobsRepo.countResultUsers(this.ctx.db, id)) === 0) {
      await this.ctx.storage.delete(resultsPrefix(id));
    }
  }

  private async own(user: AuthUser, id: string): Promise<JobRow> {
    const row = await jobsRepo.get(this.ctx.db, id);
    if (!row || row.user_id !== user.id) throw new AppError('NOT_FOUND');
    return row;
  }
}
