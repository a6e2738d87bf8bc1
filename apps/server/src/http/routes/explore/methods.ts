import { z } from 'zod';
import type { AppContext } from '../../../context';
import { methodsReport } from '../../../services/explore/methods-report';
import { methodsPdf } from '../../../services/explore/methods-pdf';
import type { ZodApp } from '../../app';
import { userOf } from '../../auth';
import { ok } from '../../envelope';
import { localeOf } from '../../error-handler';

const query = z
  .object({
    lang: z.enum(['en-US', 'zh-CN']).optional(),
    format: z.enum(['json', 'md', 'pdf']).default('json'),
  })
  .strict();

/**
 * GET /api/user_datasets/{id}/methods: the methods report (no single response schema: JSON
 * envelope or a Markdown file) of an analysis and its completed
 * tasks in the reader's language (or `lang`), as JSON `{ markdown }`, a Markdown file (`format=md`)
 * or a PDF (`format=pdf`, Noto Sans CJK embedded).
 */
export default async function methodsRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/user_datasets/:id/methods',
    {
      config: { auth: true },
      schema: {
        tags: ['explore'],
        summary:
          'Methods report (Markdown or PDF) generated from the parameters that ran, defaults marked, with citations',
        params: z.object({ id: z.string().min(1).max(100) }),
        querystring: query,
      },
    },
    async (req, reply) => {
      const lang = req.query.lang ?? localeOf(req);
      const markdown = await methodsReport(ctx, userOf(req), req.params.id, lang);
      const file = `methods-${req.params.id.slice(0, 8)}`;
      if (req.query.format === 'pdf') {
        const title = /^# (.*)$/m.exec(markdown)?.[1] ?? 'Methods';
        const pdf = await methodsPdf(markdown, lang, title);
        reply.header('content-type', 'application/pdf');
        reply.header('content-disposition', `attachment; filename="${file}-${lang}.pdf"`);
        return reply.send(pdf);
      }
      if (req.query.format === 'md') {
        reply.header('content-type', 'text/markdown; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="${file}.md"`);
        return reply.send(markdown);
      }
      return ok({ markdown });
    },
  );
}
