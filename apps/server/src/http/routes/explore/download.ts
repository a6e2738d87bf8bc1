import { z } from 'zod';
import type { AppContext } from '../../../context';
import { artifactPrefix } from '../../../services/explore/results';
import { userOf } from '../../auth';
import { AppError } from '../../errors';
import type { ZodApp } from '../../app';

/**
 * GET /api/user_datasets/{id}/h5ad?token=…: the analysed dataset as .h5ad (written beside the
 * artifacts by the analysis). Direct download until the download-request flow exists.
 */
export default async function downloadRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/user_datasets/:id/h5ad',
    {
      config: { auth: true, queryToken: true },
      schema: { tags: ['explore'], summary: 'Download the analysed dataset as .h5ad (token in the query for a plain link)', params: z.object({ id: z.string().min(1) }), querystring: z.object({ token: z.string().optional() }) },
    },
    async (req, reply) => {
      const prefix = await artifactPrefix(ctx, userOf(req), req.params.id);
      const key = `${prefix.replace(/artifacts\/$/, '')}analysis.h5ad`;
      const st = await ctx.storage.stat(key);
      if (!st) throw new AppError('FILE_NOT_FOUND');
      reply.header('content-type', 'application/x-hdf5');
      reply.header('content-length', st.size);
      reply.header('content-disposition', `attachment; filename="analysis-${req.params.id.slice(0, 8)}.h5ad"`);
      return reply.send(await ctx.storage.get(key));
    },
  );
}
