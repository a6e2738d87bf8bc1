import { z } from 'zod';
import {
  ADMIN_PUBLIC_INGEST_API,
  PUBLIC_SHEET_MAX_CHARS,
  publicIngestBody,
  publicIngestCheck,
  publicIngestStatus,
} from '@cellcloud/contracts/admin-public-ingest';
import type { AppContext } from '../../context';
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
 * held in memory by this route); the body is only the upload id and the sheet text.
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
    async (req) =>
      ok(
        await adminPublicIngest(
          { db: ctx.db, storage: ctx.storage, queue: ctx.services.jobs?.queue },
          userOf(req).id,
          req.body,
          localeOf(req),
        ),
      ),
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
