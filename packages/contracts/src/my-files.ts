import { z } from 'zod';
import { downloadKind } from './downloads';
import { uploadState } from './files';

/**
 * My Analyses "Result files" and "Project files" tabs (issue 21, docs/product/screens.md#routes-after-login).
 *
 *   GET /api/my_files/results   → ResultFileView[]   every result file of the user's analyses and tasks
 *   GET /api/my_files/projects  → ProjectGroupView[] CeleScope imports grouped by project
 *
 * A result file with a `downloadKind` can be requested through POST /api/downloads
 * ({ datasetId, kind }); the download itself always goes through a request (and approval).
 */
export const MY_FILES_API = {
  results: '/api/my_files/results',
  projects: '/api/my_files/projects',
} as const;

export const resultFileView = z.object({
  id: z.string(),
  datasetId: z.string(),
  analysisId: z.string(),
  jobName: z.string(),
  /** The downstream task that wrote the file, null for the analysis itself. */
  task: z.string().nullable(),
  fileName: z.string(),
  size: z.number(),
  producedAt: z.string(),
  downloadKind: downloadKind.nullable(),
});
export type ResultFileView = z.infer<typeof resultFileView>;

export const projectSampleView = z.object({
  id: z.string(),
  sampleName: z.string(),
  state: uploadState,
  size: z.number(),
  importedAt: z.string(),
  /** A failed import can be imported again (the originals were kept). */
  retryable: z.boolean(),
});
export const projectGroupView = z.object({
  project: z.string(),
  samples: z.array(projectSampleView),
});
export type ProjectGroupView = z.infer<typeof projectGroupView>;
