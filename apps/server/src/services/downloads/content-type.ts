import type { DownloadKind } from '@cellcloud/contracts/downloads';

/** The media type a download is served with: every kind but the h5ad and the marker CSV is a zip. */
export const DOWNLOAD_CONTENT_TYPE: Record<DownloadKind, string> = {
  h5ad: 'application/x-hdf5',
  seurat: 'application/zip',
  markers: 'text/csv; charset=utf-8',
  tables: 'application/zip',
  figures: 'application/zip',
};
