import {
  notificationDeleteBody,
  notificationListQuery,
  notificationMarkBody,
  notificationView,
  paged,
} from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { jobsDeps } from '../../services/jobs-wire';
import { userOf } from '../auth';
import { localeOf } from '../error-handler';
import { ok, okSchema } from '../envelope';
import { registerFormBody } from '../form-body';
import type { ZodApp } from '../app';
import { ROUTES } from '@cellcloud/contracts/api-paths';

const base = ROUTES.notifications.base;
const tags = ['notifications'];

/** docs/product/api.md#notification-calls notifications: unread count, list, mark read (PUT, form), delete all or selected. */
export default async function notificationRoutes(app: ZodApp, ctx: AppContext) {
  registerFormBody(app);
  const svc = () => jobsDeps(ctx).notifications;

  app.get(
    `${base}/unread`,
    {
      config: { auth: true },
      schema: { tags, summary: 'Unread count', response: okSchema(z.number().int()) },
    },
    async (req) => ok(await svc().unreadCount(userOf(req).id)),
  );

  app.get(
    base,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'List notifications (paged)',
        querystring: notificationListQuery,
        response: okSchema(paged(notificationView)),
      },
    },
    async (req) => ok(await svc().list(userOf(req).id, req.query, localeOf(req))),
  );

  app.put(
    `${base}/:id`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Mark read (form: read=true|false)',
        params: z.object({ id: z.string() }),
        body: notificationMarkBody.nullish(),
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await svc().markRead(userOf(req).id, req.params.id, (req.body?.read ?? 'true') === 'true');
      return ok(null);
    },
  );

  app.delete(
    base,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Delete selected (ids in the JSON body or repeated ?ids=) or all notifications',
        querystring: z.object({ ids: z.union([z.string(), z.array(z.string())]).optional() }),
        body: notificationDeleteBody.nullish(),
        response: okSchema(z.object({ deleted: z.number().int() })),
      },
    },
    async (req) => {
      const q = req.query.ids;
      const ids = req.body?.ids ?? (q === undefined ? undefined : Array.isArray(q) ? q : [q]);
      return ok({ deleted: await svc().delete(userOf(req).id, ids) });
    },
  );
}
