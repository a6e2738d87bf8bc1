import { analysisParams, draftToParams, speciesSchema, type WizardDraft } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { draftsRepo } from '../db/repos/drafts';
import type { JobContext } from '../queue/job-queue';
import { preprocessKey } from '../services/drafts';
import { listAnalysableSamples } from '../services/files/analysable';
import type { PreprocessChildInput } from './analysis.preprocess.child';
import { childTask, runInChild } from './runner-child-process';

/**
 * Job `analysis.preprocess` (wizard step 2, "evaluate"): QC metrics per selected sample and the
 * recommended thresholds (docs/product/limits.md#cell-filtering-defaults), computed in a child process and stored as
 * `preprocess/<draftId>/<run>/qc.json`. The draft's `cf_run` fences a result of an evaluation the
 * user discarded meanwhile (going back). Failures are shown with a retry, not retried silently.
 */
export async function handleAnalysisPreprocess(
  ctx: AppContext,
  job: JobContext<'analysis.preprocess'>,
): Promise<void> {
  const draftId = job.data.jobId;
  const row = await draftsRepo.get(ctx.db, draftId);
  if (!row || row.cf_status !== 'running') return;
  const run = row.cf_run;
  try {
    const draft = row.content as WizardDraft;
    const byId = new Map((await listAnalysableSamples(ctx, row.user_id)).map((s) => [s.uploadId, s]));
    const samples = draft.datasets.map((d) => {
      const s = byId.get(d.id);
      if (!s) throw new Error(`Sample "${d.name}" is no longer available; re-initiate from upload.`);
      return { name: d.name || s.sampleName, datasetKey: s.datasetKey, species: s.properties.species };
    });
    const species = speciesSchema
      .catch('Homo sapiens')
      .parse(samples.find((s) => s.species)?.species ?? draft.param?.species);
    const params = analysisParams.parse(draftToParams(draft.param, species));
    await runInChild(
      childTask<PreprocessChildInput>(new URL('./analysis.preprocess.child.ts', import.meta.url), draftId, {
        samples,
        params,
        outKey: preprocessKey(draftId, run),
      }),
      { config: ctx.config, signal: job.signal, memoryBytes: ctx.config.workerMemoryBytes },
    );
    await draftsRepo.setCellFiltering(ctx.db, draftId, 'done', { run });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await draftsRepo.setCellFiltering(ctx.db, draftId, 'failed', { message: message.slice(0, 1000), run });
  }
}
