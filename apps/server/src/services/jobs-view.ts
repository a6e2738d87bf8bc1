import type { JobView, Locale } from '@cellcloud/contracts';
import type { JobRow } from '../db/repos/jobs';
import { renderJobMessage } from './jobs-message';

/** A job row as the API shows it (lists, wizard, result header, SSE events). */
export function toJobView(r: JobRow, now = new Date(), locale: Locale = 'en-US'): JobView {
  const started = r.started_at ? new Date(r.started_at) : null;
  const finished = r.finished_at ? new Date(r.finished_at) : null;
  const runningSeconds = started
    ? Math.max(0, Math.round(((finished ?? now).getTime() - started.getTime()) / 1000))
    : null;
  return {
    id: r.id,
    analysisId: r.analysis_id,
    jobName: r.job_name,
    kind: r.kind,
    status: r.status,
    progress: Math.min(1, Math.max(0, Number(r.progress))),
    step: r.step,
    message: renderJobMessage(r.message, locale),
    species: r.species,
    sampleIds: r.sample_ids,
    submittedAt: new Date(r.submitted_at).toISOString(),
    startedAt: started?.toISOString() ?? null,
    finishedAt: finished?.toISOString() ?? null,
    runningSeconds: r.status === 'suspended' && !finished ? null : runningSeconds,
    cached: r.result_of !== null,
    resultId: r.result_of ?? r.id,
  };
}

/** Storage prefix of a job's published results (the explorer reads `artifacts/` under it). */
export { resultsPrefix, stagingPrefix } from '../storage/keys';
/** Where a running attempt writes before the atomic publish. */
