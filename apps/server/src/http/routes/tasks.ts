import { z } from 'zod';
import {
  createTaskBody,
  TASK_ROUTES,
  taskDefaultsQuery,
  taskDefaultsView,
  taskIdParams,
  taskListQuery,
  taskOutputsView,
  taskTablePage,
  taskTableQuery,
  taskView,
} from '@cellcloud/contracts/tasks/api';
import { datasetIdParams } from '@cellcloud/contracts/explore';
import type { AppContext } from '../../context';
import { taskDefaults } from '../../services/tasks/defaults';
import {
  createTask,
  datasetOf,
  deleteTask,
  getTask,
  listTasks,
  taskFile,
  taskOutputsOf,
  taskTable,
  taskTableFile,
} from '../../services/tasks/tasks';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { AppError } from '../errors';
import { localeOf } from '../error-handler';
import type { ZodApp } from '../app';
import { sendStored } from '../send-stored';

const tags = ['tasks'];
const TYPES: Record<string, string> = { json: 'application/json', csv: 'text/csv; charset=utf-8' };

/** Analysis tasks of a dataset (issue 11; paths and bodies in contracts tasks/api.ts). */
export default async function taskRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    TASK_ROUTES.list,
    {
      config: { auth: true },
      bodyLimit: 40 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Start an analysis task (name, params of its definition, uploaded files as base64); reuses an identical completed run',
        params: datasetIdParams,
        body: createTaskBody,
        response: okSchema(taskView),
      },
    },
    async (req) => ok(await createTask(ctx, userOf(req), req.params.id, req.body, localeOf(req))),
  );
  app.get(
    TASK_ROUTES.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Tasks of the dataset, newest first',
        params: datasetIdParams,
        querystring: taskListQuery,
        response: okSchema(z.array(taskView)),
      },
    },
    async (req) => ok(await listTasks(ctx, userOf(req), req.params.id, req.query.task, localeOf(req))),
  );
  app.get(
    TASK_ROUTES.defaults,
    {
      config: { auth: true },
      schema: {
        tags,
        summary:
          'Defaults of a task computed from the dataset (level, reference types, species, …), each with its reason; what a run with empty params takes',
        params: datasetIdParams,
        querystring: taskDefaultsQuery,
        response: okSchema(taskDefaultsView),
      },
    },
    async (req) => {
      const user = userOf(req);
      const job = await datasetOf(ctx, user, req.params.id);
      const uploads = (req.query.uploads ?? '').split(',').filter(Boolean);
      return ok(await taskDefaults(ctx, user, job, req.params.id, req.query.task, localeOf(req), uploads));
    },
  );
  app.get(
    TASK_ROUTES.one,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'One task: status, progress, translated failure',
        params: taskIdParams,
        response: okSchema(taskView),
      },
    },
    async (req) => ok(await getTask(ctx, userOf(req), req.params.id, req.params.taskId, localeOf(req))),
  );
  app.delete(
    TASK_ROUTES.one,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Delete a task and its outputs',
        params: taskIdParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await deleteTask(ctx, userOf(req), req.params.id, req.params.taskId);
      return ok(null);
    },
  );
  app.get(
    TASK_ROUTES.outputs,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Output manifest (outputs.json) and summary of a completed task',
        params: taskIdParams,
        response: okSchema(taskOutputsView),
      },
    },
    async (req) => ok(await taskOutputsOf(ctx, userOf(req), req.params.id, req.params.taskId, localeOf(req))),
  );
  app.get(
    TASK_ROUTES.table,
    {
      config: { auth: true, queryToken: true },
      schema: {
        tags,
        summary:
          'A result table: a JSON page of rows (format=json, offset, limit) or the CSV file (format=csv)',
        params: taskIdParams.extend({ name: z.string().min(1) }),
        querystring: taskTableQuery,
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      const locale = localeOf(req);
      if (req.query.format === 'csv') {
        const { key, file } = await taskTableFile(
          ctx,
          user,
          req.params.id,
          req.params.taskId,
          req.params.name,
          locale,
        );
        reply
          .type(TYPES.csv!)
          .header('content-disposition', `attachment; filename="${file.split('/').pop()}"`);
        return reply.send(await ctx.storage.get(key));
      }
      const page = await taskTable(
        ctx,
        user,
        req.params.id,
        req.params.taskId,
        req.params.name,
        req.query,
        locale,
      );
      return ok(taskTablePage.parse(page));
    },
  );
  app.get(
    TASK_ROUTES.file,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'One output file of a completed task (obs/…, data/…, tables/…; supports Range: bytes=a-b)',
        params: taskIdParams.extend({ '*': z.string() }),
      },
    },
    async (req, reply) => {
      const rel = req.params['*'];
      if (!rel || rel.split('/').some((p) => p === '' || p === '.' || p === '..')) {
        throw new AppError('VALIDATION_FAILED', { path: rel }, 'explore.badPath');
      }
      const f = await taskFile(ctx, userOf(req), req.params.id, req.params.taskId, rel, localeOf(req));
      reply.header('cache-control', 'private, max-age=3600');
      reply.type(TYPES[rel.slice(rel.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
      return sendStored(req, reply, ctx.storage, f.key, f.size);
    },
  );
}
