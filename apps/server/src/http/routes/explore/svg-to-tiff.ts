import { z } from 'zod';
import { svgToTiffBody } from '@cellcloud/contracts/explore-deg';
import type { AppContext } from '../../../context';
import { svgToTiff } from '../../../services/explore/svg-to-tiff';
import type { ZodApp } from '../../app';

/** POST /api/user-files/svg-to-tiff?token=… (SPEC §7 image conversion): SVG text in, a TIFF blob out. */
export default async function svgToTiffRoutes(app: ZodApp, _ctx: AppContext) {
  app.post(
    '/api/user-files/svg-to-tiff',
    {
      config: { auth: true, queryToken: true },
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags: ['explore'],
        summary: 'Convert an exported SVG chart to TIFF (height ≥ 4200 px); token in the query, returns image/tiff',
        querystring: z.object({ token: z.string().optional() }),
        body: svgToTiffBody,
      },
    },
    async (req, reply) => {
      const tiff = await svgToTiff(req.body.svg);
      const name = (req.body.fileName ?? 'chart').replace(/[^A-Za-z0-9_.-]/g, '_');
      reply.type('image/tiff').header('content-disposition', `attachment; filename="${name}.tiff"`);
      return reply.send(tiff);
    },
  );
}
