import {
  contentListQuery,
  contentListResponse,
  contentPaths,
  faqListResponse,
  pageQuery,
  updateLogResponse,
} from '@cellcloud/contracts';
import type { AppContext } from '../../context';
import { listContent, listFaq, updateLog } from '../../services/content';
import type { ZodApp } from '../app';
import { localeOf } from '../error-handler';
import { ok, okSchema } from '../envelope';

const tags = ['content'];

/** Public help content of docs/product/api.md#content-calls: FAQ, documentation/guidebook, update log. */
export default async function contentRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    contentPaths.faq,
    { schema: { tags, summary: 'FAQ (both languages)', response: okSchema(faqListResponse) } },
    async () => ok(await listFaq(ctx.db)),
  );

  app.get(
    contentPaths.list,
    {
      schema: {
        tags,
        summary: 'Documentation or guidebook entries (both languages)',
        querystring: contentListQuery,
        response: okSchema(contentListResponse),
      },
    },
    async (req) => ok(await listContent(ctx.db, req.query)),
  );

  app.get(
    contentPaths.updateLog,
    {
      schema: {
        tags,
        summary: 'Update log, newest first, in the request language',
        querystring: pageQuery,
        response: okSchema(updateLogResponse),
      },
    },
    async (req) => ok(await updateLog(ctx.db, req.query, localeOf(req))),
  );
}
