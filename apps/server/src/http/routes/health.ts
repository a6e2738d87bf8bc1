import { z } from 'zod';
import type { AppContext } from '../../context';
import { ok, okSchema } from '../envelope';
import type { ZodApp } from '../app';

const part = z.object({ ok: z.boolean(), kind: z.string().optional(), detail: z.string().optional() });
const health = z.object({ status: z.enum(['ok', 'degraded']), database: part, storage: part, queue: part });

/** GET /api/health — database, storage and queue status (200 when all ok, 503 otherwise). */
export default async function healthRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/health',
    { schema: { tags: ['system'], response: { ...okSchema(health), 503: okSchema(health)[200] } } },
    async (_req, reply) => {
      const probe = async (fn: () => Promise<unknown>) => {
        try {
          await fn();
          return { ok: true };
        } catch (e) {
          return { ok: false, detail: (e as Error).message };
        }
      };
      const database = { ...(await probe(() => ctx.db.query('SELECT 1'))), kind: ctx.db.kind };
      const storage = { ...(await probe(() => ctx.storage.check())), kind: ctx.storage.kind };
      const queue = ctx.queue ? await ctx.queue.check() : { ok: false, detail: 'queue not started' };
      const allOk = database.ok && storage.ok && queue.ok;
      reply.status(allOk ? 200 : 503);
      const body = ok({ status: allOk ? ('ok' as const) : ('degraded' as const), database, storage, queue });
      return allOk ? body : { ...body, code: 503, msg: 'degraded' };
    },
  );
}
