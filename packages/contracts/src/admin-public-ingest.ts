import { z } from 'zod';

/**
 * Public dataset ingest from the admin console (issue 31; administrators only). The dataset
 * files travel through the ordinary resumable upload (contracts/files.ts: `FILES_API.uploads`
 * then tus, the cells table of a counts sheet as a file with role `metadata`); this call then
 * names that upload and carries the metadata sheet as YAML or JSON text (README "metadata
 * sheet"). The sheet and the files are checked exactly as `npm run admin -- ingest-public` checks
 * them, and every problem is answered at once; without `validateOnly` a valid ingest queues the
 * `public.ingest` job, whose state and step `ADMIN_PUBLIC_INGEST_API.status` reports.
 *
 *   POST /api/admin/public-ingest        { uploadId, sheet, validateOnly? } → PublicIngestCheck
 *   GET  /api/admin/public-ingest/:id    → PublicIngestStatus
 */
export const ADMIN_PUBLIC_INGEST_API = {
  start: '/api/admin/public-ingest',
  status: (id: string) => `/api/admin/public-ingest/${encodeURIComponent(id)}`,
} as const;

/** Largest metadata sheet accepted (text). */
export const PUBLIC_SHEET_MAX_CHARS = 64 * 1024;

export const publicIngestBody = z.strictObject({
  /** A completed upload of the calling administrator holding the dataset file(s). */
  uploadId: z.string().min(1).max(64),
  /** The metadata sheet, YAML or JSON text. */
  sheet: z.string().max(PUBLIC_SHEET_MAX_CHARS),
  /** Only check the sheet and the files; queue nothing. */
  validateOnly: z.boolean().default(false),
});
export type PublicIngestBody = z.input<typeof publicIngestBody>;

/** One problem of the sheet or the files, translated; `field` is the sheet's own spelling when it is about the sheet. */
export const publicIngestProblem = z.object({
  /** The rule that failed (as the admin tool prints it, e.g. `meta.title`, `cells.barcodes.cover`). */
  rule: z.string(),
  /** The sheet field concerned, spelled as in the sheet (`title`, `columns.sample`), else null. */
  field: z.string().nullable(),
  message: z.string(),
});
export type PublicIngestProblem = z.infer<typeof publicIngestProblem>;

export const publicIngestState = z.enum(['queued', 'running', 'completed', 'error']);

export const publicIngestStatus = z.object({
  ingestId: z.string(),
  datasetId: z.string(),
  version: z.number().int(),
  status: publicIngestState,
  /** The job's current step (e.g. `normalize`), null before it starts. */
  step: z.string().nullable(),
  /** 0..1 */
  progress: z.number(),
  /** The failure, when `status` is `error`. */
  message: z.string().nullable(),
});
export type PublicIngestStatus = z.infer<typeof publicIngestStatus>;

/** `ok` false: every problem; `ok` true: the dataset the sheet describes, and the queued ingest unless validateOnly. */
export const publicIngestCheck = z.object({
  ok: z.boolean(),
  problems: z.array(publicIngestProblem),
  datasetId: z.string().nullable(),
  cells: z.number().int().nullable(),
  genes: z.number().int().nullable(),
  warnings: z.array(z.string()),
  ingest: publicIngestStatus.nullable(),
});
export type PublicIngestCheck = z.infer<typeof publicIngestCheck>;
