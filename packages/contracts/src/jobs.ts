import { z } from 'zod';

/**
 * The typed job map: every background job name with its payload schema. Enqueue sites and
 * handlers are typed by name (see apps/server/src/queue). Add a job here first, then its handler
 * in apps/server/src/jobs/<name>.ts. Names are `<area>.<verb>`.
 */
export const jobPayloads = {
  /** Parse an upload into the canonical stored dataset and compute its file properties. */
  'dataset.ingest': z.object({ uploadId: z.string() }),
  /** Cell-filtering evaluation of the wizard (QC metrics + recommended thresholds). */
  'analysis.preprocess': z.object({ jobId: z.string() }),
  /** The standard pipeline for one analysis job. */
  'analysis.run': z.object({ jobId: z.string() }),
  /**
   * Cluster genes (`cluster-markers`: every group of a grouping vs the rest) or an any-vs-any
   * comparison (`compare`: group A vs group B) on a completed result. The task row
   * (`explore_deg_tasks`) holds the cell groups; `grouping` is an annotation key or `subset:<id>`.
   */
  'analysis.deg': z.object({
    taskId: z.string(),
    datasetId: z.string(),
    mode: z.enum(['cluster-markers', 'compare']),
    grouping: z.string().nullable(),
  }),
  /** Sub-celltype (child) analysis of a subset of a completed result (row in analysis_jobs). */
  'analysis.subcluster': z.object({ jobId: z.string() }),
  /** Produce the file of an approved download request (issue 21; row in download_requests). */
  'download.export': z.object({ requestId: z.string() }),
  /** One downstream analysis task (issue 11; row in analysis_tasks, definition in contracts tasks/). */
  'analysis.task': z.object({ taskId: z.string() }),
  /**
   * Curation ingest of a public database dataset (issue 20; row in public_ingests): the validated,
   * standardized counts are staged under the new version's prefix; the job runs the standard
   * analysis there and swaps the catalogue row to the new version.
   */
  'public.ingest': z.object({ ingestId: z.string() }),
  /**
   * Diagnostic no-op (queue health, `npm run bench:jobs`, failure tests). With `jobId` it runs
   * through the same job-row lifecycle as an analysis; `failTimes` makes the first N attempts throw.
   */
  'system.noop': z.object({
    jobId: z.string().optional(),
    sleepMs: z.number().int().min(0).max(600_000).default(0),
    failTimes: z.number().int().min(0).default(0),
  }),
} as const;

export type JobName = keyof typeof jobPayloads;
export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloads)[N]>;

/** Progress event a running job reports (and the browser receives). */
export const progressEvent = z.object({
  fraction: z.number().min(0).max(1),
  step: z.string(),
  message: z.string().optional(),
});
export type ProgressEvent = z.infer<typeof progressEvent>;

/** Lifecycle of an analysis job (docs/product/states.md#jobs): submitted → queued → running → completed | error. */
export const jobStatuses = ['submitted', 'queued', 'running', 'completed', 'error', 'suspended'] as const;
export const jobStatus = z.enum(jobStatuses);
export type JobStatus = z.infer<typeof jobStatus>;

/** My Analyses tabs: single-sample/custom analyses vs. integrated (several samples). */
export const jobKind = z.enum(['custom', 'integrated']);
export type JobKind = z.infer<typeof jobKind>;

/** One job as lists, the wizard and the result header show it. Times are ISO strings. */
export const jobView = z.object({
  id: z.string(),
  analysisId: z.string(),
  jobName: z.string(),
  kind: jobKind,
  status: jobStatus,
  progress: z.number().min(0).max(1),
  step: z.string().nullable(),
  message: z.string().nullable(),
  species: z.string(),
  sampleIds: z.array(z.string()),
  submittedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Seconds between start and finish (or now while running). */
  runningSeconds: z.number().nullable(),
  /** True when the result was reused from an identical earlier submission. */
  cached: z.boolean(),
  /** Job whose stored results this job shows (`results/<resultId>/`): itself unless cached. */
  resultId: z.string(),
});
export type JobView = z.infer<typeof jobView>;

export const jobListQuery = z.object({
  kind: jobKind.optional(),
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  /** Only analyses that integrated public (SynEcoSys) datasets (display switch "show only integrated SynEcoSys datasets"). */
  synEcoSysOnly: z.stringbool().optional(),
});

/** Server-sent event payloads of `GET /api/jobs/events`. */
export const jobEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('job'), job: jobView }),
  z.object({ type: z.literal('notifications'), unread: z.number().int().nonnegative() }),
  z.object({ type: z.literal('cellFiltering'), draftId: z.string(), status: z.string() }),
  /** An analysis task of a dataset changed (status or progress): refetch its list (tasks/api.ts). */
  z.object({
    type: z.literal('task'),
    datasetId: z.string(),
    taskId: z.string(),
    status: z.string(),
    progress: z.number(),
  }),
]);
export type JobEvent = z.infer<typeof jobEvent>;
