import { z } from 'zod';
import {
  ADMIN_PUBLIC_INGEST_API,
  PUBLIC_SHEET_MAX_CHARS,
  publicIngestBody,
  publicIngestCheck,
  publicIngestStatus,
} from '@cellcloud/contracts/admin-public-ingest';
import type { AppContext } from '../../context';
import { recordAudit } from '../../services/admin/audit';
import { deleteUpload } from '../../services/files/uploads';
import { adminPublicIngest, adminPublicIngestStatus } from '../../services/public-datasets/admin-ingest';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { localeOf } from '../error-handler';

const tags = ['admin'];
const security = [{ accessToken: [] }];
const config = { admin: true };

/**
 * Public dataset ingest from the admin console (issue 31; contracts/admin-public-ingest.ts).
 * The files come through the ordinary resumable upload (streamed to storage, resumable, no size
 * held in memory by this route); the body is only the upload id and the sheet text. The upload is
 * deleted once the ingest is queued.
 */
export default async function adminPublicIngestRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    ADMIN_PUBLIC_INGEST_API.start,
    {
      config,
      bodyLimit: PUBLIC_SHEET_MAX_CHARS * 4 + 4096,
      schema: {
        tags,
        security,
        summary:
          'Check a public dataset ingest (an upload + the metadata sheet), listing every problem; when valid and not validateOnly, queue the public.ingest job',
        body: publicIngestBody,
        response: okSchema(publicIngestCheck),
      },
    },
    async (req) => {
      const userId = userOf(req).id;
      const deps = { db: ctx.db, storage: ctx.storage, queue: ctx.services.jobs?.queue };
      const r = await adminPublicIngest(deps, userId, req.body, localeOf(req));
      // once queued, the counts are staged under public/: the upload (and its parse as a sample
      // of the administrator, its quota) is no longer needed
      if (r.ingest) {
        await deleteUpload(ctx, userId, req.body.uploadId);
        const target = `${r.ingest.datasetId} v${r.ingest.version}`;
        await recordAudit(ctx.db, userOf(req), 'public.ingest', target, { ingestId: r.ingest.ingestId });
      }
      return ok(r);
    },
  );
  app.get(
    `${ADMIN_PUBLIC_INGEST_API.start}/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'State, step and progress of a public dataset ingest',
        params: z.object({ id: z.string().min(1).max(100) }),
        response: okSchema(publicIngestStatus),
      },
    },
    async (req) => ok(await adminPublicIngestStatus(ctx.db, req.params.id)),
  );
}
