import { z } from 'zod';
import type { AppContext } from '../../../context';
import { artifactKey, artifactPrefix } from '../../../services/explore/results';
import { parseRange } from '../../../services/explore/range';
import { manifestWithTaskObs } from '../../../services/tasks/explorer-obs';
import { userOf } from '../../auth';
import { AppError } from '../../errors';
import type { ZodApp } from '../../app';

const TYPES: Record<string, string> = { json: 'application/json' };

/**
 * GET /api/user_datasets/{id}/artifacts/<path>: streams one explorer artifact of a completed
 * analysis (manifest.json, embeddings, obs columns, expr/<layer>.bin with HTTP Range, …). Binary
 * files are immutable once published, so the browser may cache them privately.
 */
export default async function artifactRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/user_datasets/:id/artifacts/*',
    {
      config: { auth: true },
      schema: {
        tags: ['explore'],
        summary: 'One explorer artifact file of a finished analysis (supports Range: bytes=a-b)',
        params: z.object({ id: z.string().min(1), '*': z.string() }),
      },
    },
    async (req, reply) => {
      const prefix = await artifactPrefix(ctx, userOf(req), req.params.id);
      const key = artifactKey(prefix, req.params['*']);
      const st = await ctx.storage.stat(key);
      if (!st) {
        if (!(await ctx.storage.stat(`${prefix}manifest.json`)))
          throw new AppError('NOT_FOUND', {}, 'explore.noArtifacts');
        throw new AppError('FILE_NOT_FOUND');
      }
      const ext = key.slice(key.lastIndexOf('.') + 1);
      if (req.params['*'] === 'manifest.json') {
        // + the per-cell columns of the dataset's completed analysis tasks (issue 11)
        const merged = await manifestWithTaskObs(ctx, req.params.id, await ctx.storage.getBytes(key));
        reply.header('cache-control', 'no-store').type(TYPES.json!);
        return reply.send(Buffer.from(merged.buffer, merged.byteOffset, merged.byteLength));
      }
      reply.header('accept-ranges', 'bytes');
      reply.header('cache-control', 'private, max-age=3600');
      reply.header('last-modified', st.mtime.toUTCString());
      reply.type(TYPES[ext] ?? 'application/octet-stream');
      const range = parseRange(req.headers.range, st.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${st.size}`);
        throw new AppError(
          'VALIDATION_FAILED',
          { range: req.headers.range, size: st.size },
          'explore.badRange',
        );
      }
      if (range) {
        reply.code(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
        reply.header('content-length', range.end - range.start + 1);
        return reply.send(await ctx.storage.get(key, range));
      }
      reply.header('content-length', st.size);
      return reply.send(await ctx.storage.get(key));
    },
  );
}
