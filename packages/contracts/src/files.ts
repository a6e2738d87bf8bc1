import { z } from 'zod';
import { paged, pageQuery } from './envelope';

/**
 * Data import (docs/product/overview.md#import Import, docs/product/entities.md#file-properties upload list + file properties, docs/product/states.md#uploads upload states, docs/product/validation.md#upload-files rules).
 *
 * One upload = one sample: a sample name (unique per user) and 1..n files sent with tus to
 * `FILES_API.tus` (a 10x triplet is three files of one upload; an optional metadata/group table
 * may ride along with role 'metadata'). When every file has arrived the upload moves to
 * 'parsing' (background job `dataset.ingest`), then 'completed' or 'failed'.
 *
 * zod messages are i18n keys: the server catalog (apps/server/src/i18n/files.ts) and the web
 * namespace `files` both define them.
 */
export const FILES_API = {
  uploads: '/api/files/uploads',
  upload: (id: string) => `/api/files/uploads/${encodeURIComponent(id)}`,
  retry: (id: string) => `/api/files/uploads/${encodeURIComponent(id)}/retry`,
  properties: (id: string) => `/api/files/uploads/${encodeURIComponent(id)}/properties`,
  checkName: '/api/files/check-name',
  usage: '/api/files/usage',
  tus: '/api/files/tus',
} as const;

/** docs/product/validation.md#job-and-sample-names: start with a letter or underscore, then letters, digits, underscore, dot or space. */
export const SAMPLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_. ]*$/;
export const SAMPLE_NAME_MAX = 100;

export const sampleNameField = z
  .string()
  .trim()
  .min(1, { message: 'files.sampleName.required' })
  .max(SAMPLE_NAME_MAX, { message: 'files.sampleName.tooLong' })
  .regex(SAMPLE_NAME_PATTERN, { message: 'files.sampleName.invalid' });

/** Import source = the tab of /importdata. */
export const uploadKind = z.enum(['matrix', 'annotated', 'celescope']);
export type UploadKind = z.infer<typeof uploadKind>;

/** What the user says the files are; 'auto' lets the parser detect it. */
export const formatHint = z.enum(['auto', '10x-mtx', '10x-h5', 'dense-text', 'h5ad', 'celescope']);
export type FormatHint = z.infer<typeof formatHint>;

export const uploadState = z.enum(['uploading', 'parsing', 'completed', 'failed']);
export type UploadState = z.infer<typeof uploadState>;

export const fileRole = z.enum(['data', 'metadata']);

/** Largest single file accepted (the quota usually bites first). */
export const MAX_FILE_BYTES = 64 * 1024 ** 3;

export const uploadFileSpec = z.strictObject({
  name: z.string().min(1).max(255),
  size: z.number().int().nonnegative().max(MAX_FILE_BYTES),
  role: fileRole.default('data'),
});

/** POST /api/files/uploads — announce a sample and its files; answers the upload with tus slots. */
export const createUploadBody = z.strictObject({
  sampleName: sampleNameField,
  kind: uploadKind,
  formatHint: formatHint.default('auto'),
  files: z.array(uploadFileSpec).min(1, { message: 'files.files.required' }).max(20),
});
export type CreateUploadBody = z.input<typeof createUploadBody>;

export const renameUploadBody = z.strictObject({ sampleName: sampleNameField });

export const checkNameQuery = z.strictObject({ name: z.string() });
export const checkNameResult = z.object({ available: z.boolean(), messageKey: z.string().optional() });

export const uploadSortField = z.enum(['fileName', 'uploadedOn']);
export const listUploadsQuery = pageQuery.extend({
  search: z.string().trim().max(200).optional(),
  sortBy: uploadSortField.default('uploadedOn'),
  order: z.enum(['asc', 'desc']).default('desc'),
  state: uploadState.optional(),
});
export type ListUploadsQuery = z.input<typeof listUploadsQuery>;

/**
 * What the values of an uploaded matrix are (docs/methods/import-formats.md#value-kinds), detected
 * at import: integer counts (UMI or reads), non-integer counts (TPM, CPM, RSEM expected counts of
 * full-length protocols: scaled per cell and logged like counts) or already log-normalized values
 * (normalization skipped). Negative values, NaN and infinities are refused by the readers.
 */
export const valueKind = z.enum(['counts', 'nonIntegerCounts', 'logNormalized']);
export type ValueKind = z.infer<typeof valueKind>;

/**
 * Non-integer values whose largest value stays at or below this are taken as log-normalized:
 * log1p(count / total × 10⁴) tops out near 10, log2(TPM + 1) near 20, while counts, TPM and
 * expected counts of any real cell reach hundreds or more.
 */
export const LOG_NORMALIZED_MAX = 32;

/** The value kind of a matrix from two facts its reader found: any non-integer value, and the largest value. */
export function valueKindOf(nonInteger: boolean, maxValue: number): ValueKind {
  if (!nonInteger) return 'counts';
  return maxValue <= LOG_NORMALIZED_MAX ? 'logNormalized' : 'nonIntegerCounts';
}

export const umiSummary = z.object({
  total: z.number(),
  min: z.number(),
  median: z.number(),
  mean: z.number(),
  max: z.number(),
});

/** docs/product/entities.md#file-properties file properties: species and an Ensembl release with its overlap percent, plus counts. */
export const fileProperties = z.object({
  species: z.string().nullable(),
  ensemblRelease: z.number().int().nullable(),
  ensemblReference: z.string().nullable(),
  /** Percent of the dataset's genes found in that release (0–100, one decimal). */
  overlapPercent: z.number(),
  cells: z.number().int(),
  genes: z.number().int(),
  umi: umiSummary,
  /** docs/product/validation.md#sample-sizes: more than 30 and fewer than 100,000 cells. */
  usable: z.boolean(),
  unusableReasonKey: z.string().nullable(),
  warnings: z.array(z.string()),
  /** Non-integer values (TPM, expected counts of full-length protocols) were accepted: not raw UMI counts. */
  nonInteger: z.boolean().optional(),
  /** The detected value kind (absent on uploads parsed before it was recorded: integer counts unless `nonInteger`). */
  valueKind: valueKind.optional(),
});
export type FileProperties = z.infer<typeof fileProperties>;

export const uploadFile = z.object({
  index: z.number().int(),
  name: z.string(),
  size: z.number(),
  role: fileRole,
  received: z.number(),
  complete: z.boolean(),
  /** tus id to send as metadata `slot` (and to resume). */
  slot: z.string(),
});

export const uploadFailure = z.object({
  code: z.string(),
  /** Translated in the request's language; ends with the "re-initiate from upload" hint. */
  message: z.string(),
  retryable: z.boolean(),
});

export const uploadRow = z.object({
  id: z.string(),
  /** The sample name (what the list calls fileName; renamable, unique per user). */
  fileName: z.string(),
  fileSize: z.number(),
  kind: uploadKind,
  formatHint: formatHint,
  /** Detected format once parsed, else the hint. */
  format: z.string(),
  uploadedOn: z.string(),
  state: uploadState,
  /** 0..1 of the current state (bytes received while uploading, parse progress while parsing). */
  progress: z.number(),
  failure: uploadFailure.nullable(),
  properties: fileProperties.nullable(),
  files: z.array(uploadFile),
});
export type UploadRow = z.infer<typeof uploadRow>;

export const uploadList = paged(uploadRow);
export type UploadList = z.infer<typeof uploadList>;

export const storageUsage = z.object({ usedBytes: z.number(), quotaBytes: z.number() });
export type StorageUsage = z.infer<typeof storageUsage>;

export const uploadIdParams = z.object({ id: z.string().min(1).max(64) });

/** tus Upload-Metadata keys the browser sends with each file. */
export const TUS_METADATA = {
  slot: 'slot',
  filename: 'filename',
  sampleName: 'sampleName',
  formatHint: 'formatHint',
  kind: 'kind',
} as const;
