import { z } from 'zod';
import {
  adminDownloadQuery,
  createDownloadBody,
  declineBody,
  downloadListQuery,
  downloadView,
  signedQuery,
  DOWNLOADS_API,
} from '@cellcloud/contracts/downloads';
import type { AppContext } from '../../context';
import { downloadsRepo } from '../../db/repos/downloads';
import { AppError } from '../../errors';
import {
  adminListDownloads,
  decideDownload,
  getDownload,
  listDownloads,
  requestDownload,
} from '../../services/downloads/requests';
import { DOWNLOAD_CONTENT_TYPE } from '../../services/downloads/content-type';
import { checkLink, LINK_MESSAGE, withLinkSession } from '../../services/downloads/signing';
import type { ZodApp } from '../app';
import { tokenOf, userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { localeOf } from '../error-handler';
import { sendStored } from '../send-stored';

const tags = ['downloads'];
const security = [{ accessToken: [] }];
const idParams = z.object({ id: z.string().min(1).max(100) });

/** Requested downloads (contracts/downloads.ts): the user's requests, the admin queue, signed file links. */
export default async function downloadRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    DOWNLOADS_API.create,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Request a download of a result (auto-approved with the downloadFreeFile privilege)',
        body: createDownloadBody,
        response: okSchema(downloadView),
      },
    },
    async (req) =>
      ok(
        await withLinkSession(tokenOf(req), () => requestDownload(ctx, userOf(req), req.body, localeOf(req))),
      ),
  );
  app.get(
    DOWNLOADS_API.list,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Download requests of the user in one tab (active, requested, expired)',
        querystring: downloadListQuery,
        response: okSchema(z.array(downloadView)),
      },
    },
    async (req) =>
      ok(await withLinkSession(tokenOf(req), () => listDownloads(ctx, userOf(req), req.query.tab))),
  );
  app.get(
    '/api/downloads/:id',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'One download request',
        params: idParams,
        response: okSchema(downloadView),
      },
    },
    async (req) =>
      ok(await withLinkSession(tokenOf(req), () => getDownload(ctx, userOf(req), req.params.id))),
  );
  app.get(
    '/api/downloads/:id/file',
    {
      schema: {
        tags,
        summary:
          'The file of an approved request through its signed link, tied to the session it was given to and short-lived (supports Range)',
        params: idParams,
        querystring: signedQuery,
      },
    },
    async (req, reply) => {
      const { exp, sig, sid } = req.query;
      const verdict = await checkLink(ctx, req.params.id, exp, sig, sid);
      if (verdict !== 'ok') throw new AppError('FORBIDDEN', {}, LINK_MESSAGE[verdict]);
      const r = await downloadsRepo.get(ctx.db, req.params.id);
      if (!r || r.status !== 'approved' || !r.file_key)
        throw new AppError('FORBIDDEN', {}, 'downloads.notAvailable');
      const st = await ctx.storage.stat(r.file_key);
      if (!st) throw new AppError('FORBIDDEN', {}, 'downloads.notAvailable');
      reply.header('content-type', DOWNLOAD_CONTENT_TYPE[r.kind]);
      reply.header(
        'content-disposition',
        `attachment; filename="${r.file_name.replace(/[^A-Za-z0-9_.-]/g, '_')}"`,
      );
      return sendStored(req, reply, ctx.storage, r.file_key, st.size);
    },
  );
  app.get(
    DOWNLOADS_API.adminList,
    {
      config: { admin: true },
      schema: {
        tags,
        security,
        summary: 'Download requests awaiting approval (or all), admin only',
        querystring: adminDownloadQuery,
        response: okSchema(z.array(downloadView)),
      },
    },
    async (req) =>
      ok(await withLinkSession(tokenOf(req), () => adminListDownloads(ctx, req.query.status === 'pending'))),
  );
  app.post(
    '/api/admin/downloads/:id/approve',
    {
      config: { admin: true },
      schema: {
        tags,
        security,
        summary: 'Approve a pending request (the export job starts)',
        params: idParams,
        response: okSchema(downloadView),
      },
    },
    async (req) => ok(await decideDownload(ctx, userOf(req), req.params.id, { approve: true })),
  );
  app.post(
    '/api/admin/downloads/:id/decline',
    {
      config: { admin: true },
      schema: {
        tags,
        security,
        summary: 'Decline a pending request with a reason (the user is notified)',
        params: idParams,
        body: declineBody,
        response: okSchema(downloadView),
      },
    },
    async (req) =>
      ok(await decideDownload(ctx, userOf(req), req.params.id, { approve: false, reason: req.body.reason })),
  );
}
