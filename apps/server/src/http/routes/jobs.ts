import { jobEvent, jobListQuery, jobView, paged, submitDraft } from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { jobsDeps } from '../../services/jobs-wire';
import { userOf } from '../auth';
import { localeOf } from '../error-handler';
import { ok, okSchema } from '../envelope';
import type { ZodApp } from '../app';
import { ROUTES } from '@cellcloud/contracts/api-paths';

const tags = ['jobs'];
const idParams = z.object({ id: z.string().min(1) });

/**
 * Analysis jobs: submit (from the wizard), list (My Analyses tabs), detail, suspend / resume /
 * re-edit / delete, and the live event stream (SSE, token in the query for EventSource).
 */
export default async function jobRoutes(app: ZodApp, ctx: AppContext) {
  const deps = () => jobsDeps(ctx);
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.addHook('onClose', async () => {
    await ctx.services.jobs?.close();
  });

  app.post(
    ROUTES.jobs.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Submit an analysis (wizard draft: samples, groups and analysis parameters)',
        body: submitDraft,
        response: okSchema(jobView),
      },
    },
    async (req) => ok(await deps().jobs.submit(userOf(req), req.body)),
  );

  app.get(
    ROUTES.jobs.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'List my analysis jobs',
        querystring: jobListQuery,
        response: okSchema(paged(jobView)),
      },
    },
    async (req) => ok(await deps().jobs.list(userOf(req), req.query, localeOf(req))),
  );

  app.get(
    ROUTES.jobs.events,
    {
      config: { auth: true, queryToken: true },
      schema: {
        tags,
        summary: 'Server-sent events: job progress and unread notifications (token as ?token=)',
        querystring: z.object({ token: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const write = (data: z.infer<typeof jobEvent>) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      res.write(': connected\n\n');
      write({ type: 'notifications', unread: await deps().notifications.unreadCount(user.id) });
      const off = deps().events.subscribe(user.id, write);
      const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
      const end = () => {
        if (!streams.delete(end)) return;
        clearInterval(ping);
        off();
        res.end();
      };
      streams.add(end);
      req.raw.on('close', end);
    },
  );

  app.get(
    ROUTES.jobs.one,
    {
      config: { auth: true },
      schema: { tags, summary: 'One job', params: idParams, response: okSchema(jobView) },
    },
    async (req) => ok(await deps().jobs.get(userOf(req), req.params.id, localeOf(req))),
  );

  app.post(
    ROUTES.jobs.suspend,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Suspend a waiting or running job',
        params: idParams,
        response: okSchema(jobView),
      },
    },
    async (req) => ok(await deps().jobs.suspend(userOf(req), req.params.id)),
  );

  app.post(
    ROUTES.jobs.resume,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Resume a suspended or failed job',
        params: idParams,
        response: okSchema(jobView),
      },
    },
    async (req) => ok(await deps().jobs.resume(userOf(req), req.params.id)),
  );

  app.post(
    ROUTES.jobs.reedit,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Back into the wizard with the job parameters (new draft)',
        params: idParams,
        response: okSchema(z.object({ draftId: z.string() })),
      },
    },
    async (req) => ok(await deps().jobs.reedit(userOf(req), req.params.id)),
  );

  app.delete(
    ROUTES.jobs.one,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Delete a job and its results',
        params: idParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await deps().jobs.delete(userOf(req), req.params.id);
      return ok(null);
    },
  );
}
