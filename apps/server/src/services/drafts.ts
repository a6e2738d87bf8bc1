import {
  wizardDraft,
  type CellFilteringStatus,
  type DraftView,
  type WizardDraft,
} from '@cellcloud/contracts';
import type { AppContext, AuthUser } from '../context';
import { draftsRepo, type DraftRow } from '../db/repos/drafts';
import { uploadOwnersRepo } from '../db/repos/upload-owners';
import '../i18n/drafts';
import { AppError } from '../errors';
import type { JobQueue } from '../queue/job-queue';
import { preprocessKey, preprocessPrefix } from '../storage/keys';

/** Storage prefix of a draft's cell-filtering evaluation (QC metrics + recommended thresholds). */
export { preprocessKey, preprocessPrefix } from '../storage/keys';

/**
 * Initiate-analysis drafts (docs/product/entities.md#analysis-draft draft fields, stored server-side, resumed at stepTag/pageTag)
 * and the step-2 cell-filtering evaluation, which runs as the `analysis.preprocess` job:
 * notStarted → running (the user may leave) → failed (retry) | done. Going back discards it.
 */
export class DraftsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly queue: JobQueue,
  ) {}

  async save(user: AuthUser, input: unknown, id?: string): Promise<DraftView> {
    const parsed = wizardDraft.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError('VALIDATION_FAILED', { detail: `${issue.path.join('.')}: ${issue.message}` });
    }
    const d = parsed.data;
    const targetId = id ?? d.id;
    if (targetId) await this.own(user, targetId);
    await this.refuseForeignSamples(user, d);
    const row = await draftsRepo.upsert(this.ctx.db, user.id, targetId, {
      jobName: d.param.jobName,
      stepTag: d.stepTag,
      pageTag: d.pageTag,
      content: { ...d, id: undefined },
    });
    return toDraftView(row!);
  }

  async list(user: AuthUser): Promise<DraftView[]> {
    return (await draftsRepo.list(this.ctx.db, user.id)).map(toDraftView);
  }

  async get(user: AuthUser, id: string): Promise<DraftView> {
    return toDraftView(await this.own(user, id));
  }

  async delete(user: AuthUser, id: string): Promise<void> {
    const row = await this.own(user, id);
    if (row.cf_boss_id && row.cf_status === 'running')
      await this.queue.cancel('analysis.preprocess', row.cf_boss_id);
    await draftsRepo.delete(this.ctx.db, user.id, id);
    await this.ctx.storage.delete(preprocessPrefix(id));
  }

  /** Starts (or retries) the evaluation of the draft's selected samples. */
  async startCellFiltering(user: AuthUser, id: string): Promise<DraftView> {
    const row = await this.own(user, id);
    const draft = row.content as WizardDraft;
    if (!draft.datasets?.length) throw new AppError('VALIDATION_FAILED', {}, 'wizard.samples.required');
    await this.refuseForeignSamples(user, draft);
    if (row.cf_status === 'running') return toDraftView(row);
    await this.ctx.storage.delete(preprocessPrefix(id));
    const running = await draftsRepo.setCellFiltering(this.ctx.db, id, 'running', { newRun: true });
    const bossId = await this.queue.send('analysis.preprocess', { jobId: id });
    return toDraftView(
      (await draftsRepo.setCellFiltering(this.ctx.db, id, 'running', { bossId, run: running!.cf_run }))!,
    );
  }

  /** Going back from the evaluation: cancel it and discard its results. */
  async discardCellFiltering(user: AuthUser, id: string): Promise<DraftView> {
    const row = await this.own(user, id);
    if (row.cf_boss_id && row.cf_status === 'running')
      await this.queue.cancel('analysis.preprocess', row.cf_boss_id);
    const reset = await draftsRepo.setCellFiltering(this.ctx.db, id, 'notStarted', { newRun: true });
    await this.ctx.storage.delete(preprocessPrefix(id));
    return toDraftView(reset!);
  }

  /** The evaluation result (per-sample QC distributions + recommended thresholds) once done. */
  async cellFilteringResult(
    user: AuthUser,
    id: string,
  ): Promise<{ status: CellFilteringStatus; message: string | null; result: unknown }> {
    const row = await this.own(user, id);
    const status = row.cf_status as CellFilteringStatus;
    if (status !== 'done') return { status, message: row.cf_message, result: null };
    const bytes = await this.ctx.storage.getBytes(preprocessKey(id, row.cf_run)).catch(() => undefined);
    if (!bytes) return { status: 'failed', message: 'result missing', result: null };
    return { status, message: null, result: JSON.parse(new TextDecoder().decode(bytes)) };
  }

  /**
   * A draft names only the user's own uploads (or public samples): another user's upload id is
   * refused with 404 and a translated message, before anything is saved or queued (issue 34 probe).
   * An id that is no upload at all is kept: the evaluation then fails with "no longer available",
   * as for a sample deleted after it was chosen.
   */
  private async refuseForeignSamples(user: AuthUser, draft: WizardDraft): Promise<void> {
    const ids = (draft.datasets ?? []).map((s) => s.id).filter((i) => !i.startsWith('public:'));
    const foreign = await uploadOwnersRepo.ownedByOthers(this.ctx.db, user.id, ids);
    if (foreign.length) throw new AppError('NOT_FOUND', { detail: foreign[0] }, 'wizard.samples.notFound');
  }

  private async own(user: AuthUser, id: string): Promise<DraftRow> {
    const row = await draftsRepo.get(this.ctx.db, id);
    if (!row || row.user_id !== user.id) throw new AppError('NOT_FOUND');
    return row;
  }
}

export function toDraftView(r: DraftRow): DraftView {
  const content = wizardDraft.parse({ ...r.content, id: r.id, cellFilteringTaskStatus: r.cf_status });
  return {
    id: r.id,
    jobName: r.job_name,
    stepTag: r.step_tag,
    pageTag: r.page_tag as DraftView['pageTag'],
    updatedAt: new Date(r.updated_at).toISOString(),
    draft: content,
  };
}
