import { FILES_API, MAX_FILE_BYTES } from '@cellcloud/contracts';
import { Server, type DataStore } from '@tus/server';
import type { AppContext } from '../../context';
import { setFileProgress, startParsingIfComplete } from '../../db/repos/uploads';
import { parseRawKey, parseTusSlot, rawFileKey, tusSlotFromUrl, tusSlotOf } from '../../storage/tus-store';

/**
 * The tus server of /api/files/tus. Ids are storage keys (`raw/<uploadId>/<i>`); URLs carry the
 * slot form `<uploadId>.<i>`. Authentication and ownership are checked by the route before a
 * request reaches this server (see http/routes/files-tus.ts + tus-guard.ts).
 */
export function createTusServer(
  ctx: AppContext,
  datastore: DataStore,
  enqueueIngest: (uploadId: string) => Promise<void>,
): Server {
  const tus = new Server({
    path: FILES_API.tus,
    datastore,
    maxSize: MAX_FILE_BYTES,
    namingFunction: (_req, metadata) => {
      const slot = parseTusSlot(metadata?.slot ?? '');
      if (!slot) throw { status_code: 400, body: 'Upload-Metadata "slot" is missing or invalid\n' };
      return rawFileKey(slot.uploadId, slot.index);
    },
    generateUrl: (_req, { path, id }) => {
      const k = parseRawKey(id);
      return k ? `${path}/${tusSlotOf(k.uploadId, k.index)}` : `${path}/${encodeURIComponent(id)}`;
    },
    // The same strict parse as the route's guard (query strings / extra segments → no id).
    getFileIdFromRequest: (req) => {
      const text = tusSlotFromUrl(req.url, FILES_API.tus);
      const slot = text ? parseTusSlot(text) : undefined;
      return slot ? rawFileKey(slot.uploadId, slot.index) : undefined;
    },
    onUploadFinish: async (_req, upload) => {
      await fileFinished(ctx, upload.id, upload.size ?? upload.offset, enqueueIngest);
      return {};
    },
  });
  return tus;
}

/** Records the offset the store holds after a PATCH (the list shows how far an upload got, also an unfinished one). */
export async function recordTusOffset(ctx: AppContext, tus: Server, slot: string | undefined): Promise<void> {
  const k = slot ? parseTusSlot(slot) : undefined;
  if (!k) return;
  const upload = await tus.datastore.getUpload(rawFileKey(k.uploadId, k.index)).catch(() => undefined);
  if (upload) await setFileProgress(ctx.db, k.uploadId, k.index, upload.offset, false);
}

/** Marks one file complete; when it was the last one the upload moves to 'parsing' and is queued. */
export async function fileFinished(
  ctx: AppContext,
  key: string,
  size: number,
  enqueueIngest: (uploadId: string) => Promise<void>,
): Promise<void> {
  const k = parseRawKey(key);
  if (!k) return;
  await setFileProgress(ctx.db, k.uploadId, k.index, size, true);
  if (await startParsingIfComplete(ctx.db, k.uploadId)) await enqueueIngest(k.uploadId);
}
