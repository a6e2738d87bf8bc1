import { z } from 'zod';

/**
 * Requested downloads (issue 21; docs/product/screens.md#routes-after-login /requestedDownloads, docs/product/entities.md#download-requests download request entity, docs/product/states.md#downloads
 * states not requested → pending → approved / declined → expired, docs/product/permissions.md#downloads "download free file",
 * docs/product/limits.md#time-limits "a converted-data download is valid 7 days").
 *
 * A user requests an export of one of their results; a plan whose `downloadFreeFile` privilege
 * is enabled is approved at once, otherwise the request waits for an administrator. On approval
 * a background job (`download.export`) writes the file under `downloads/<requestId>/`; the user
 * gets a notification and a signed, time-limited link (HMAC over id + expiry) that supports HTTP
 * Range. At expiry the file is deleted and the request shows in the "expired" tab.
 *
 *   POST   /api/downloads                       { datasetId, kind }      → DownloadView
 *   GET    /api/downloads?tab=active|requested|expired                   → DownloadView[]
 *   GET    /api/downloads/:id                                            → DownloadView
 *   GET    /api/downloads/:id/file?exp=&sig=    (no token: the signature is the credential)
 *   GET    /api/admin/downloads?status=pending|all                      → DownloadView[] (admin)
 *   POST   /api/admin/downloads/:id/approve                              (admin)
 *   POST   /api/admin/downloads/:id/decline     { reason }               (admin)
 */
export const DOWNLOADS_API = {
  list: '/api/downloads',
  create: '/api/downloads',
  one: (id: string) => `/api/downloads/${id}`,
  file: (id: string) => `/api/downloads/${id}/file`,
  adminList: '/api/admin/downloads',
  approve: (id: string) => `/api/admin/downloads/${id}/approve`,
  decline: (id: string) => `/api/admin/downloads/${id}/decline`,
} as const;

/**
 * What can be exported: `h5ad` (analysis.h5ad for scanpy), `seurat` (zip: counts and normalized
 * 10x MTX, cell metadata CSV with every annotation level and QC column, embeddings CSV and
 * `load_seurat.R`), `markers` (the marker table CSV), `tables` (zip: the markers, every saved DE
 * result and every completed task's tables as CSV with their documented columns, plus
 * `tables.xlsx` with a sheet per table and a README.txt), `figures` (zip: the result's figures
 * rendered on the server as SVG + PNG, labels in the requester's language).
 */
export const downloadKinds = ['h5ad', 'seurat', 'markers', 'tables', 'figures'] as const;
export const downloadKind = z.enum(downloadKinds);
export type DownloadKind = z.infer<typeof downloadKind>;

export const downloadStatus = z.enum(['pending', 'approved', 'declined', 'expired']);
export type DownloadStatus = z.infer<typeof downloadStatus>;
export const exportState = z.enum(['waiting', 'running', 'ready', 'failed']);

export const createDownloadBody = z
  .object({ datasetId: z.string().min(1).max(100), kind: downloadKind })
  .strict();
export const downloadTab = z.enum(['active', 'requested', 'expired']);
export const downloadListQuery = z.object({ tab: downloadTab.default('active') }).strict();
export const adminDownloadQuery = z
  .object({ status: z.enum(['pending', 'all']).default('pending') })
  .strict();
export const declineBody = z.object({ reason: z.string().trim().min(1).max(500) }).strict();
export const signedQuery = z
  .object({
    exp: z.coerce.number().int(),
    sig: z.string().min(10).max(200),
    /** The session the link was given to (sha256 of its access token; the token never is in a URL). */
    sid: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

export const downloadView = z.object({
  id: z.string(),
  datasetId: z.string(),
  jobName: z.string(),
  kind: downloadKind,
  fileName: z.string(),
  status: downloadStatus,
  exportState,
  fileSize: z.number().nullable(),
  validDays: z.number().int(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** Signed link while approved, ready and not expired (absolute path under /api). */
  url: z.string().nullable(),
  /** Admin lists only: who asked. */
  username: z.string().optional(),
});
export type DownloadView = z.infer<typeof downloadView>;
