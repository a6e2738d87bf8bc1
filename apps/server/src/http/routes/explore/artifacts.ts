import { z } from 'zod';
import type { AppContext } from '../../../context';
import { artifactKey, artifactPrefix } from '../../../services/explore/results';
import { manifestWithTaskOutputs } from '../../../services/tasks/explorer-obs';
import { userOf } from '../../auth';
import { AppError } from '../../errors';
import type { ZodApp } from '../../app';
import { sendStored } from '../../send-stored';

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
        // + the per-cell columns (issue 11) and layouts (issue 33) of the dataset's completed tasks
        const merged = await manifestWithTaskOutputs(ctx, req.params.id, await ctx.storage.getBytes(key));
        reply.header('cache-control', 'no-store').type(TYPES.json!);
        return reply.send(Buffer.from(merged.buffer, merged.byteOffset, merged.byteLength));
      }
      reply.header('cache-control', 'private, max-age=3600');
      reply.header('last-modified', st.mtime.toUTCString());
      reply.type(TYPES[ext] ?? 'application/octet-stream');
      return sendStored(req, reply, ctx.storage, key, st.size);
    },
  );
}
