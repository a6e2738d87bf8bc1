import type { AppContext } from '../../context';
import { listParsing } from '../../db/repos/uploads';
import { handleDatasetIngest } from '../../jobs/dataset.ingest';
import '../../i18n/files';
import { openTusStore } from '../../storage/tus-store';
import type { FilesDeps } from './deps';
import { inProcessRunner, type JobRunner } from './ingest-runner';
import { createTusServer } from './tus-server';

/**
 * Registers the files area in `ctx.services.files`: the tus server on the configured storage and
 * the background parse of uploads. Gene lists for file properties come from
 * ENSEMBL_GENE_LISTS_DIR. Uploads a crash left in 'parsing' are queued again at start.
 */
export async function wireFiles(ctx: AppContext, env: NodeJS.ProcessEnv = process.env): Promise<FilesDeps & { runner: JobRunner }> {
  const geneListsDir = env.ENSEMBL_GENE_LISTS_DIR || undefined;
  const runner = inProcessRunner(
    { 'dataset.ingest': (p) => handleDatasetIngest(ctx, p, () => {}, { geneListsDir }) },
    (e) => {
      if (ctx.config.logLevel !== 'silent') console.error('[dataset.ingest]', e);
    },
  );
  const enqueueIngest = (uploadId: string) => runner.enqueue('dataset.ingest', { uploadId });
  const deps = { tus: createTusServer(ctx, openTusStore(ctx.config), enqueueIngest), enqueueIngest, runner };
  ctx.services.files = deps;
  for (const id of await listParsing(ctx.db)) await enqueueIngest(id);
  return deps;
}
