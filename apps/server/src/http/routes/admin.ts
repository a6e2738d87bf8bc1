import { z } from 'zod';
import {
  ADMIN_API,
  adminAuditQuery,
  adminAuditView,
  adminJobView,
  adminJobsQuery,
  adminPlanView,
  adminStorageView,
  adminUserView,
  adminUsersQuery,
  assignPlanBody,
  updatePlanBody,
} from '@cellcloud/contracts/admin';
import type { AppContext } from '../../context';
import '../../services/admin/messages';
import { listAudit } from '../../services/admin/audit';
import { adminJobAction, adminListJobs, adminStorage } from '../../services/admin/jobs-storage';
import {
  adminAssignPlan,
  adminListPlans,
  adminListUsers,
  adminSetDisabled,
  adminUpdatePlan,
} from '../../services/admin/users-plans';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';

const tags = ['admin'];
const security = [{ accessToken: [] }];
const config = { admin: true };
const idParams = z.object({ id: z.string().min(1).max(100) });

/** Admin console (contracts/admin.ts): users, plans, jobs, storage, audit log. Admins only. */
export default async function adminRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    ADMIN_API.probe,
    {
      // any signed-in user may ask about themselves (a 403 here would be a console error on
      // every page of a non-admin); the role stays out of account info
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Is the caller an administrator? (for the web: whether to show the admin console)',
        response: okSchema(z.object({ admin: z.boolean() })),
      },
    },
    async (req) => ok({ admin: userOf(req).isAdmin }),
  );
  app.get(
    ADMIN_API.users,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Users (search by name or e-mail)',
        querystring: adminUsersQuery,
        response: okSchema(z.array(adminUserView)),
      },
    },
    async (req) => ok(await adminListUsers(ctx, req.query.search)),
  );
  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/api/admin/users/:id/${action}`,
      {
        config,
        schema: {
          tags,
          security,
          summary: `${action} a user (disabling revokes its sessions)`,
          params: idParams,
          response: okSchema(adminUserView),
        },
      },
      async (req) => ok(await adminSetDisabled(ctx, userOf(req), req.params.id, action === 'disable')),
    );
  }
  app.post(
    '/api/admin/users/:id/plan',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Assign a plan to a user',
        params: idParams,
        body: assignPlanBody,
        response: okSchema(adminUserView),
      },
    },
    async (req) => ok(await adminAssignPlan(ctx, userOf(req), req.params.id, req.body.planId)),
  );
  app.get(
    ADMIN_API.plans,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Plans with their privileges, display switches and quota',
        response: okSchema(z.array(adminPlanView)),
      },
    },
    async () => ok(await adminListPlans(ctx)),
  );
  app.put(
    '/api/admin/plans/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a plan (quota, display switches, privilege flags)',
        params: idParams,
        body: updatePlanBody,
        response: okSchema(adminPlanView),
      },
    },
    async (req) => ok(await adminUpdatePlan(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    ADMIN_API.jobs,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Running or failed jobs of every user',
        querystring: adminJobsQuery,
        response: okSchema(z.array(adminJobView)),
      },
    },
    async (req) => ok(await adminListJobs(ctx, req.query.status)),
  );
  for (const action of ['requeue', 'cancel'] as const) {
    app.post(
      `/api/admin/jobs/:id/${action}`,
      {
        config,
        schema: {
          tags,
          security,
          summary: `${action} a job`,
          params: idParams,
          response: okSchema(adminJobView),
        },
      },
      async (req) => ok(await adminJobAction(ctx, userOf(req), req.params.id, action)),
    );
  }
  app.get(
    ADMIN_API.storage,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Storage usage by user and kind',
        response: okSchema(adminStorageView),
      },
    },
    async () => ok(await adminStorage(ctx)),
  );
  app.get(
    ADMIN_API.audit,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Audit log of admin actions, newest first',
        querystring: adminAuditQuery,
        response: okSchema(z.array(adminAuditView)),
      },
    },
    async (req) => ok(await listAudit(ctx.db, req.query.limit)),
  );
}
