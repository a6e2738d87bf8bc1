import { z } from 'zod';
import {
  authoredBody,
  authoredItem,
  authoredKinds,
  CONTENT_ADMIN_API,
  orderBody,
  previewBody,
  systemNotificationBody,
  videoUpdateBody,
  videoUploadQuery,
  videoView,
  VIDEOS_API,
} from '@cellcloud/contracts/admin-content';
import type { AppContext } from '../../context';
import {
  createAuthored,
  deleteAuthored,
  listAuthored,
  notifyAllUsers,
  reorderAuthored,
  updateAuthored,
} from '../../services/admin/content';
import {
  deleteVideo,
  listVideos,
  reorderVideos,
  updateVideo,
  uploadVideo,
  videoFile,
} from '../../services/admin/videos';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { sendStored } from '../send-stored';
import { renderBody } from '../../services/content-render';

const tags = ['admin'];
const config = { admin: true };
const kindParams = z.object({ kind: z.enum(authoredKinds) });
const itemParams = kindParams.extend({ id: z.string().min(1).max(200) });
const idParams = z.object({ id: z.string().min(1).max(100) });
const base = '/api/admin/content/:kind';
/** Two texts of up to 200,000 characters (3 bytes each in UTF-8 for Chinese) fit. */
const bodyLimit = 4 * 1024 * 1024;

/**
 * Content authoring of the admin console (contracts/admin-content.ts): FAQ, documentation,
 * guidebook, update log, tutorial videos, system notifications (admins only), and the public
 * tutorial video list and stream.
 */
export default async function adminContentRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Authored entries of one kind',
        params: kindParams,
        response: okSchema(z.array(authoredItem)),
      },
    },
    async (req) => ok(await listAuthored(ctx, req.params.kind)),
  );
  app.post(
    base,
    {
      config,
      bodyLimit,
      schema: {
        tags,
        summary: 'Add an entry (both languages), placed last',
        params: kindParams,
        body: authoredBody,
        response: okSchema(authoredItem),
      },
    },
    async (req) => ok(await createAuthored(ctx, userOf(req), req.params.kind, req.body)),
  );
  app.put(
    `${base}/order`,
    {
      config,
      schema: {
        tags,
        summary: 'Set the order of the entries of one kind',
        params: kindParams,
        body: orderBody,
        response: okSchema(z.array(authoredItem)),
      },
    },
    async (req) => ok(await reorderAuthored(ctx, userOf(req), req.params.kind, req.body.ids)),
  );
  app.put(
    `${base}/:id`,
    {
      config,
      bodyLimit,
      schema: {
        tags,
        summary: 'Edit an entry',
        params: itemParams,
        body: authoredBody,
        response: okSchema(authoredItem),
      },
    },
    async (req) => ok(await updateAuthored(ctx, userOf(req), req.params.kind, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      config,
      schema: { tags, summary: 'Delete an entry', params: itemParams, response: okSchema(z.null()) },
    },
    async (req) => ok(await deleteAuthored(ctx, userOf(req), req.params.kind, req.params.id)),
  );

  app.post(
    CONTENT_ADMIN_API.preview,
    {
      config,
      bodyLimit,
      schema: {
        tags,
        summary: 'HTML of a text as the public pages will get it (Markdown rendered)',
        body: previewBody,
        response: okSchema(z.object({ html: z.string() })),
      },
    },
    async (req) => ok({ html: renderBody(req.body.text, req.body.format) }),
  );

  await app.register(async (sub) => {
    // the video body is streamed by the handler (type and size checked as it arrives)
    sub.addContentTypeParser('*', (_req, _payload, done) => done(null));
    sub.post(
      CONTENT_ADMIN_API.videos,
      {
        config,
        schema: {
          tags,
          summary: 'Upload a tutorial video (raw body, Content-Type video/mp4 or video/webm)',
          querystring: videoUploadQuery,
          response: okSchema(videoView),
        },
      },
      async (req) => {
        const length = req.headers['content-length'];
        const query = req.query as z.infer<typeof videoUploadQuery>;
        const video = await uploadVideo(
          ctx,
          userOf(req),
          {
            contentType: req.headers['content-type'],
            contentLength: length === undefined ? undefined : Number(length),
            titleEn: query.titleEn,
            titleZh: query.titleZh,
          },
          req.raw,
        );
        return ok(video);
      },
    );
  });
  app.put(
    CONTENT_ADMIN_API.videoOrder,
    {
      config,
      schema: {
        tags,
        summary: 'Set the order of the tutorial videos',
        body: orderBody,
        response: okSchema(z.array(videoView)),
      },
    },
    async (req) => ok(await reorderVideos(ctx, userOf(req), req.body.ids)),
  );
  app.put(
    '/api/admin/videos/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit the titles of a video',
        params: idParams,
        body: videoUpdateBody,
        response: okSchema(videoView),
      },
    },
    async (req) => ok(await updateVideo(ctx, userOf(req), req.params.id, req.body.title)),
  );
  app.delete(
    '/api/admin/videos/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a video and its file',
        params: idParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => ok(await deleteVideo(ctx, userOf(req), req.params.id)),
  );
  app.post(
    CONTENT_ADMIN_API.notify,
    {
      config,
      schema: {
        tags,
        summary: 'Send a system notification (both languages) to every user',
        body: systemNotificationBody,
        response: okSchema(z.object({ recipients: z.number() })),
      },
    },
    async (req) => ok(await notifyAllUsers(ctx, userOf(req), req.body)),
  );

  app.get(
    VIDEOS_API.list,
    {
      schema: {
        tags: ['content'],
        summary: 'Tutorial videos in order (both languages)',
        response: okSchema(z.array(videoView)),
      },
    },
    async () => ok(await listVideos(ctx)),
  );
  app.get(
    '/api/content/videos/:id/file',
    {
      schema: {
        tags: ['content'],
        summary: 'Stream a tutorial video (supports Range: bytes=a-b)',
        params: idParams,
      },
    },
    async (req, reply) => {
      const f = await videoFile(ctx, req.params.id);
      reply.header('cache-control', 'public, max-age=3600');
      reply.type(f.mime);
      return sendStored(req, reply, ctx.storage, f.key, f.size);
    },
  );
}
