import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { VIDEO_MAX_BYTES, type VideoView } from '@cellcloud/contracts/admin-content';
import type { AppContext, AuthUser } from '../../context';
import { adminContentRepo, type VideoRow } from '../../db/repos/admin-content';
import { AppError, notFound } from '../../errors';
import { videoKey } from '../../storage/keys';
import { recordAudit } from './audit';
import './content-messages';

/**
 * Tutorial videos: uploaded from the admin console as one streamed request body (type checked on
 * the file's own signature, size limited while streaming), stored in the configured storage
 * under videos/<id>, listed publicly in the admin's order and streamed with HTTP Range.
 */
type VideoMime = VideoView['mime'];

function toView(r: VideoRow): VideoView {
  return {
    id: r.id,
    title: { 'en-US': r.title_en, 'zh-CN': r.title_zh },
    mime: r.mime as VideoMime,
    size: Number(r.size),
    sort: Number(r.sort),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** The container a file's first bytes announce: WebM (EBML), MP4 (ISO BMFF `ftyp`), or a description. */
export function sniffVideo(head: Uint8Array): VideoMime | string {
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'video/webm';
  if (Buffer.from(head.subarray(4, 8)).toString('latin1') === 'ftyp') return 'video/mp4';
  return 'unknown file';
}

const tooLarge = () =>
  new AppError('VALIDATION_FAILED', { limitMb: VIDEO_MAX_BYTES / 1024 / 1024 }, 'content.videoTooLarge');

/**
 * Passes the upload through, refusing it on its first bytes when it is not the declared video
 * type and as soon as it exceeds `limit`; `onEnd` receives the size.
 */
function checkedVideo(
  body: AsyncIterable<Buffer>,
  declared: VideoMime,
  limit: number,
  onEnd: (size: number) => void,
): Readable {
  return Readable.from(
    (async function* () {
      let size = 0;
      let head: Buffer | null = Buffer.alloc(0);
      for await (const chunk of body) {
        size += chunk.length;
        if (size > limit) throw tooLarge();
        if (head) {
          head = Buffer.concat([head, chunk]);
          if (head.length < 12) continue;
          const detected = sniffVideo(head);
          if (detected !== declared)
            throw new AppError('VALIDATION_FAILED', { detected }, 'content.videoType');
          yield head;
          head = null;
          continue;
        }
        yield chunk;
      }
      if (head?.length)
        throw new AppError('VALIDATION_FAILED', { detected: sniffVideo(head) }, 'content.videoType');
      if (size === 0) throw new AppError('VALIDATION_FAILED', {}, 'content.videoEmpty');
      onEnd(size);
    })(),
  );
}

export async function uploadVideo(
  ctx: AppContext,
  admin: AuthUser,
  input: {
    contentType: string | undefined;
    contentLength: number | undefined;
    titleEn: string;
    titleZh: string;
  },
  body: AsyncIterable<Buffer>,
): Promise<VideoView> {
  const declared = (input.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (declared !== 'video/mp4' && declared !== 'video/webm')
    throw new AppError('VALIDATION_FAILED', { detected: declared || 'unknown file' }, 'content.videoType');
  if (input.contentLength !== undefined && input.contentLength > VIDEO_MAX_BYTES) throw tooLarge();
  const id = randomUUID();
  let size = 0;
  await ctx.storage.put(
    videoKey(id),
    checkedVideo(body, declared, VIDEO_MAX_BYTES, (n) => (size = n)),
  );
  try {
    return await ctx.db.tx(async (q) => {
      const row = await adminContentRepo.insertVideo(q, {
        id,
        titleEn: input.titleEn,
        titleZh: input.titleZh,
        mime: declared,
        size,
      });
      await recordAudit(q, admin, 'video.upload', id, { title: input.titleEn, size });
      return toView(row);
    });
  } catch (e) {
    await ctx.storage.delete(videoKey(id));
    throw e;
  }
}

export async function listVideos(ctx: AppContext): Promise<VideoView[]> {
  return (await adminContentRepo.videos(ctx.db)).map(toView);
}

export async function updateVideo(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  title: { 'en-US': string; 'zh-CN': string },
): Promise<VideoView> {
  if (!title['en-US'] || !title['zh-CN'])
    throw new AppError('VALIDATION_FAILED', {}, 'content.titleRequired');
  return ctx.db.tx(async (q) => {
    const row = await adminContentRepo.updateVideo(q, id, title['en-US'], title['zh-CN']);
    if (!row) throw notFound();
    await recordAudit(q, admin, 'video.update', id, { title: title['en-US'] });
    return toView(row);
  });
}

export async function deleteVideo(ctx: AppContext, admin: AuthUser, id: string): Promise<null> {
  await ctx.db.tx(async (q) => {
    const row = await adminContentRepo.video(q, id);
    if (!row || !(await adminContentRepo.deleteVideo(q, id))) throw notFound();
    await recordAudit(q, admin, 'video.delete', id, { title: row.title_en });
  });
  await ctx.storage.delete(videoKey(id));
  return null;
}

export async function reorderVideos(ctx: AppContext, admin: AuthUser, ids: string[]): Promise<VideoView[]> {
  await ctx.db.tx(async (q) => {
    await adminContentRepo.reorderVideos(q, ids);
    await recordAudit(q, admin, 'video.reorder', 'videos', { ids });
  });
  return listVideos(ctx);
}

/** The stored video to stream (type, size, key), or 404. */
export async function videoFile(ctx: AppContext, id: string) {
  const row = await adminContentRepo.video(ctx.db, id);
  if (!row) throw notFound();
  return { key: videoKey(id), size: Number(row.size), mime: row.mime };
}
