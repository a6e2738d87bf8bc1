import type { Server as TusServer } from '@tus/server';
import type { AppContext } from '../../context';

/**
 * What the files area keeps in `ctx.services.files` (set by `wireFiles`): the tus server and the
 * way to start a background parse. Routes and services reach them through `filesDeps(ctx)`.
 */
export interface FilesDeps {
  tus: TusServer;
  /** Queue the `dataset.ingest` job for an upload that just entered 'parsing'. */
  enqueueIngest(uploadId: string): Promise<void>;
}

export function filesDeps(ctx: AppContext): FilesDeps {
  const d = ctx.services.files;
  if (!d) throw new Error('files area is not wired: call wireFiles(ctx) in composeContext');
  return d;
}
