import type { JobName } from '@cellcloud/contracts';

/**
 * Kind of work of every job name (issue 34, fair queues): each kind has its own concurrency
 * setting (`QUEUE_CONCURRENCY_<KIND>`, config.ts) so that one kind of work — a slow parse, a
 * long analysis — never holds the workers of another. A Record over JobName, so a new job name
 * does not compile until it is given a kind.
 */
export const JOB_KINDS = ['parsing', 'analyses', 'tasks', 'exports', 'publicIngest', 'system'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const KIND_OF_JOB: Record<JobName, JobKind> = {
  'dataset.ingest': 'parsing',
  'analysis.preprocess': 'analyses',
  'analysis.run': 'analyses',
  'analysis.deg': 'analyses',
  'analysis.subcluster': 'analyses',
  'analysis.task': 'tasks',
  'download.export': 'exports',
  'public.ingest': 'publicIngest',
  'system.noop': 'system',
};

/** The kind of a job name as pg-boss stores it (`unknown` for a name this version does not know). */
export const kindOfName = (name: string): JobKind | 'unknown' =>
  (KIND_OF_JOB as Record<string, JobKind>)[name] ?? 'unknown';
