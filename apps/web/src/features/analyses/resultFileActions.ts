import type { DownloadKind, DownloadView } from '@cellcloud/contracts/downloads';
import type { ResultFileView } from '@cellcloud/contracts/my-files';

/**
 * What the "Result files" tab offers for one file (issue 21): for each export the file can be
 * requested as, the state of the user's latest request of that export — none yet (request),
 * waiting for an administrator, approved and being prepared, or ready with its signed link.
 * `analysis.h5ad` is also the source of the Seurat bundle and of the figures, so its row offers
 * all three; `markers.csv` starts the tables zip (markers, DE results, task tables), so its row
 * offers both.
 */
export type FileAction =
  | { kind: DownloadKind; state: 'request' }
  | { kind: DownloadKind; state: 'pending' | 'preparing' }
  | { kind: DownloadKind; state: 'ready'; url: string; expiresAt: string | null };

export function exportKindsOf(file: Pick<ResultFileView, 'downloadKind'>): DownloadKind[] {
  if (!file.downloadKind) return [];
  if (file.downloadKind === 'h5ad') return ['h5ad', 'seurat', 'figures'];
  return file.downloadKind === 'markers' ? ['markers', 'tables'] : [file.downloadKind];
}

/** `downloads`: the user's active and requested downloads (any order; the newest request wins). */
export function fileActions(
  file: Pick<ResultFileView, 'datasetId' | 'downloadKind'>,
  downloads: readonly DownloadView[],
): FileAction[] {
  return exportKindsOf(file).map((kind) => {
    const mine = downloads
      .filter((d) => d.datasetId === file.datasetId && d.kind === kind)
      .filter((d) => d.status === 'pending' || d.status === 'approved')
      .sort((x, y) => (x.requestedAt < y.requestedAt ? 1 : -1));
    const ready = mine.find((d) => d.status === 'approved' && d.exportState === 'ready' && d.url);
    if (ready) return { kind, state: 'ready', url: ready.url!, expiresAt: ready.expiresAt };
    const latest = mine[0];
    // a failed export can be requested again
    if (!latest || (latest.status === 'approved' && latest.exportState === 'failed'))
      return { kind, state: 'request' };
    return { kind, state: latest.status === 'pending' ? 'pending' : 'preparing' };
  });
}
