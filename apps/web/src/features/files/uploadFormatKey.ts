import type { UploadRow } from '@cellcloud/contracts/files';

/** i18n key of a format code. */
export const FORMAT_KEYS: Record<string, string> = {
  auto: 'files:formats.auto',
  '10x-mtx': 'files:formats.mtx',
  '10x-h5': 'files:formats.h5',
  'dense-text': 'files:formats.dense',
  h5ad: 'files:formats.h5ad',
  celescope: 'files:formats.celescope',
};

const BY_NAME: [RegExp, string][] = [
  [/\.h5ad$/i, 'h5ad'],
  [/\.h5$/i, '10x-h5'],
  [/(matrix\.mtx|barcodes\.tsv|features\.tsv|genes\.tsv)(\.gz)?$|\.mtx(\.gz)?$/i, '10x-mtx'],
  [/\.(csv|tsv|txt)(\.gz)?$/i, 'dense-text'],
];

/**
 * The Format column of an upload: the detected or chosen format; "Detecting" while it is received
 * or parsed; for an upload whose format was never detected (failed), the format its files' names say
 * (issue 31: it was listed as "Unknown"), else "not read".
 */
export function uploadFormatKey(row: Pick<UploadRow, 'format' | 'state' | 'kind' | 'files'>): string {
  if (FORMAT_KEYS[row.format] && row.format !== 'auto') return FORMAT_KEYS[row.format]!;
  if (row.state === 'uploading' || row.state === 'parsing') return 'files:formats.auto';
  if (row.kind === 'celescope') return FORMAT_KEYS.celescope!;
  const named = BY_NAME.find(([re]) => row.files.some((f) => re.test(f.name)))?.[1];
  if (named) return FORMAT_KEYS[named]!;
  return row.state === 'failed' ? 'files:formats.notRead' : 'files:formats.unknown';
}
