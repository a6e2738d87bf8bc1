import { z } from 'zod';
import { svgToTiffBody } from '@cellcloud/contracts/explore-deg';
import type { AppContext } from '../../../context';
import { svgToTiff } from '../../../services/explore/svg-to-tiff';
import type { ZodApp } from '../../app';
import { userOf } from '../../auth';
import { accountsOf } from '../../../services/accounts/wire';

/** POST /api/user-files/svg-to-tiff?token=… (docs/product/api.md#image-conversion image conversion): SVG text in, a TIFF blob out. */
export default async function svgToTiffRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    '/api/user-files/svg-to-tiff',
    {
      config: { auth: true, queryToken: true },
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags: ['explore'],
        summary:
          'Convert an exported SVG chart to TIFF (height ≥ 4200 px); token in the query, returns image/tiff',
        querystring: z.object({ token: z.string().optional() }),
        body: svgToTiffBody,
      },
    },
    async (req, reply) => {
      // Per-user limit (issue 12): each conversion renders up to TIFF_MAX_PIXELS.
      await accountsOf(ctx).limiter.consume('svg-to-tiff', userOf(req).id, { limit: 30, windowSeconds: 600 });
      const tiff = await svgToTiff(req.body.svg);
      const name = (req.body.fileName ?? 'chart').replace(/[^A-Za-z0-9_.-]/g, '_');
      reply.type('image/tiff').header('content-disposition', `attachment; filename="${name}.tiff"`);
      return reply.send(tiff);
    },
  );
}
