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
  /** Cluster genes / any-vs-any differential expression on an existing result. */
  'analysis.deg': z.object({ jobId: z.string() }),
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
