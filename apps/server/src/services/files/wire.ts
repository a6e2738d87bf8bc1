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
 * config.geneListsDir (ENSEMBL_GENE_LISTS_DIR). Uploads a crash left in 'parsing' are queued again at start (at most one
 * queued job per upload).
 */
export async function wireFiles(ctx: AppContext): Promise<FilesDeps & { runner: JobRunner }> {
  const geneListsDir = ctx.config.geneListsDir;
  const runner = inProcessRunner(
    { 'dataset.ingest': (p) => handleDatasetIngest(ctx, p, () => {}, { geneListsDir }) },
    (e) => {
      if (ctx.config.logLevel !== 'silent') console.error('[dataset.ingest]', e);
    },
  );
  const enqueueIngest = async (uploadId: string) => {
    // The application's job queue once the jobs area is wired (its worker runs the same handler,
    // see src/jobs/runner.ts); the in-process runner otherwise (e.g. a context without jobs).
    const queue = ctx.services.jobs?.queue;
    if (!queue) return runner.enqueue('dataset.ingest', { uploadId });
    await queue.send('dataset.ingest', { uploadId }, { singletonKey: uploadId }).catch((e: unknown) => {
      if (!/already waiting/.test(e instanceof Error ? e.message : '')) throw e;
    });
  };
  const deps = { tus: createTusServer(ctx, openTusStore(ctx.config), enqueueIngest), enqueueIngest, runner };
  ctx.services.files = deps;
  for (const id of await listParsing(ctx.db)) await enqueueIngest(id);
  return deps;
}
