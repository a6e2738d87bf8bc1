import type { AppContext } from '../context';
import { downloadsRepo } from '../db/repos/downloads';
import type { NotificationsService } from '../services/notifications';
import { downloadKey, sourceKeyOf } from '../services/downloads/requests';
import type { SeuratExportInput } from './download.export.child';
import { childTask, runInChild } from './runner-child-process';

/**
 * Job `download.export` (issue 21): writes the file of an approved request under
 * `downloads/<requestId>/` — the result's analysis.h5ad or markers.csv as stored (streamed), or
 * the Seurat bundle built from analysis.h5ad in a memory-capped child process — then starts the
 * validity and notifies the user.
 */
export async function handleDownloadExport(
  ctx: AppContext,
  notifications: NotificationsService,
  data: { requestId: string },
): Promise<void> {
  const r = await downloadsRepo.get(ctx.db, data.requestId);
  if (!r || r.status !== 'approved' || r.export_state === 'ready') return;
  await downloadsRepo.setExport(ctx.db, r.id, 'running');
  try {
    const source = await sourceKeyOf(ctx, r.job_id, r.kind);
    const key = downloadKey(r.id, r.file_name);
    if (r.kind === 'seurat') {
      // the conversion is CPU and memory heavy: a memory-capped child, never the API's event loop
      await runInChild(
        childTask<SeuratExportInput>(new URL('./download.export.child.ts', import.meta.url), r.id, {
          h5adKey: source,
          outKey: key,
        }),
        { config: ctx.config, memoryBytes: ctx.config.workerMemoryBytes },
      );
    } else {
      await ctx.storage.put(key, await ctx.storage.get(source));
    }
    const st = await ctx.storage.stat(key);
    await downloadsRepo.ready(ctx.db, r.id, key, st?.size ?? 0);
    await notifications.create(r.user_id, 'download.ready', { name: r.file_name });
  } catch (e) {
    await downloadsRepo.setExport(ctx.db, r.id, 'failed');
    throw e;
  }
}
