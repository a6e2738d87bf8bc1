import type { AppContext } from '../../context';
import { listParsing } from '../../db/repos/uploads';
import '../../i18n/files';
import { openTusStore } from '../../storage/tus-store';
import type { FilesDeps } from './deps';
import { createTusServer } from './tus-server';

/**
 * Registers the files area in `ctx.services.files`: the tus server on the configured storage and
 * the background parse of uploads. Gene lists for file properties come from
 * config.geneListsDir (ENSEMBL_GENE_LISTS_DIR). Uploads a crash left in 'parsing' are queued again at start (at most one
 * queued job per upload).
 */
export async function wireFiles(ctx: AppContext): Promise<FilesDeps> {
  // The job queue's worker runs the parse (src/jobs/dataset.ingest.ts, see src/jobs/runner.ts).
  const enqueueIngest = async (uploadId: string) => {
    await ctx.queue.send('dataset.ingest', { uploadId }, { singletonKey: uploadId }).catch((e: unknown) => {
      if (!/already waiting/.test(e instanceof Error ? e.message : '')) throw e;
    });
  };
  const deps = { tus: createTusServer(ctx, openTusStore(ctx.config), enqueueIngest), enqueueIngest };
  ctx.services.files = deps;
  for (const id of await listParsing(ctx.db)) await enqueueIngest(id);
  return deps;
}
