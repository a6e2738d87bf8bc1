import { FILES_API } from '@cellcloud/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { filesDeps } from '../../services/files/deps';
import { guardTusRequest } from '../../services/files/tus-guard';
import { recordTusOffset } from '../../services/files/tus-server';
import { tusSlotFromUrl } from '../../storage/tus-store';
import type { ZodApp } from '../app';
import { userOf } from '../auth';

const METHODS = ['POST', 'HEAD', 'PATCH', 'DELETE'] as const;

/**
 * tus 1.0 resumable uploads under /api/files/tus (creation, creation-with-upload, termination).
 * The access-token header authenticates every request; the guard checks ownership, announced
 * names and sizes; then the raw request is handed to @tus/server, which streams the body to the
 * store (local directory or S3) without buffering it.
 */
export default async function filesTusRoutes(app: ZodApp, ctx: AppContext) {
  await app.register(async (sub) => {
    // Leave tus bodies unread: the tus server consumes the stream itself.
    sub.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      // One strict parse of the raw URL for both the guard and @tus/server (getFileIdFromRequest).
      const slot = tusSlotFromUrl(req.raw.url ?? '', FILES_API.tus);
      await guardTusRequest(ctx, userOf(req).id, { method: req.method, slot, headers: req.headers });
      reply.hijack();
      const { tus } = filesDeps(ctx);
      await tus.handle(req.raw, reply.raw);
      if (req.method === 'PATCH') await recordTusOffset(ctx, tus, slot);
    };
    const schema = { hide: true };
    sub.route({
      method: [...METHODS],
      url: FILES_API.tus,
      config: { auth: true, privilege: 'importData' },
      schema,
      handler: handle,
    });
    sub.route({
      method: [...METHODS],
      url: `${FILES_API.tus}/:slot`,
      config: { auth: true, privilege: 'importData' },
      schema,
      handler: handle,
    });
    const preflight = async (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      await filesDeps(ctx).tus.handle(req.raw, reply.raw);
    };
    sub.options(FILES_API.tus, { schema }, preflight);
    sub.options(`${FILES_API.tus}/:slot`, { schema }, preflight);
  });
}
