import { z } from 'zod';
import type { AppContext } from '../../../context';
import { methodsReport } from '../../../services/explore/methods-report';
import type { ZodApp } from '../../app';
import { userOf } from '../../auth';
import { ok } from '../../envelope';
import { localeOf } from '../../error-handler';

const query = z
  .object({ lang: z.enum(['en-US', 'zh-CN']).optional(), format: z.enum(['json', 'md']).default('json') })
  .strict();

/**
 * GET /api/user_datasets/{id}/methods: the methods report (no single response schema: JSON
 * envelope or a Markdown file) of an analysis and its completed
 * tasks in the reader's language (or `lang`), as JSON `{ markdown }` or a Markdown file (`format=md`).
 */
export default async function methodsRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/user_datasets/:id/methods',
    {
      config: { auth: true },
      schema: {
        tags: ['explore'],
        summary:
          'Methods report (Markdown) generated from the parameters that ran, defaults marked, with citations',
        params: z.object({ id: z.string().min(1).max(100) }),
        querystring: query,
      },
    },
    async (req, reply) => {
      const markdown = await methodsReport(ctx, userOf(req), req.params.id, req.query.lang ?? localeOf(req));
      if (req.query.format === 'md') {
        reply.header('content-type', 'text/markdown; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="methods-${req.params.id.slice(0, 8)}.md"`);
        return reply.send(markdown);
      }
      return ok({ markdown });
    },
  );
}
