import { fileProperties, type FileProperties, type Locale, type UploadRow } from '@cellcloud/contracts';
import type { UploadRecord } from '../../db/repos/uploads';
import { tusSlotOf } from '../../storage/tus-store';
import { translate } from '../../i18n/translate';

/** The failure reason in the reader's language; bad input ends with "re-initiate from upload". */
export function failureMessage(
  locale: Locale,
  code: string,
  params: Record<string, string | number>,
  retryable: boolean,
): string {
  const text = translate(locale, code, params);
  return retryable ? text : `${text} ${translate(locale, 'files.reinitiate')}`;
}

/**
 * Stored file properties as the API shows them; a row that no longer fits the schema (e.g. null
 * totals written from an Infinity before values were checked, issue 12) shows none instead of
 * breaking the whole upload list with a 500.
 */
function storedProperties(p: unknown): FileProperties | null {
  if (p === null || p === undefined) return null;
  const parsed = fileProperties.safeParse(p);
  return parsed.success ? parsed.data : null;
}

/** API view of an upload (docs/product/entities.md#file-properties upload list columns + file properties). */
export function toUploadRow(r: UploadRecord, locale: Locale): UploadRow {
  return {
    id: r.id,
    fileName: r.sampleName,
    fileSize: r.totalSize,
    kind: r.kind,
    formatHint: r.formatHint as UploadRow['formatHint'],
    format: r.format ?? r.formatHint,
    uploadedOn: r.createdAt.toISOString(),
    state: r.state,
    progress: r.progress,
    failure:
      r.state === 'failed' && r.failureCode
        ? {
            code: r.failureCode,
            message: failureMessage(locale, r.failureCode, r.failureParams ?? {}, r.retryable),
            retryable: r.retryable,
          }
        : null,
    properties: storedProperties(r.properties),
    files: r.files.map((f) => ({
      index: f.idx,
      name: f.name,
      size: f.size,
      role: f.role,
      received: f.received,
      complete: f.complete,
      slot: tusSlotOf(r.id, f.idx),
    })),
  };
}
