import { z } from 'zod';
import { datasetIdParams } from '@cellcloud/contracts/explore';
import { calculateDegBody, degTaskParams, degTaskView } from '@cellcloud/contracts/explore-deg';
import type { AppContext } from '../../../context';
import { calculateDeg, degTaskResult, listDegTasks } from '../../../services/explore/deg-tasks';
import { userOf } from '../../auth';
import { ok, okSchema } from '../../envelope';
import type { ZodApp } from '../../app';

const tags = ['explore'];
const base = '/api/user_datasets/:id';

/** Job-backed DE (docs/product/api.md#dataset-calls calculate_deg_task): start, list (state after a refresh), result rows. */
export default async function degRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    `${base}/calculate_deg_task`,
    {
      config: { auth: true },
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Start cluster genes of a grouping or a comparison of two groups (≥ 3 cells each) as a background job; one calculation at a time per user',
        params: datasetIdParams,
        body: calculateDegBody,
        response: okSchema(degTaskView),
      },
    },
    async (req) => ok(await calculateDeg(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    `${base}/deg_tasks`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'DE calculations of the dataset, newest first',
        params: datasetIdParams,
        response: okSchema(z.array(degTaskView)),
      },
    },
    async (req) => ok(await listDegTasks(ctx, userOf(req), req.params.id)),
  );
  app.get(
    `${base}/deg_tasks/:taskId/result`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary:
          'DEG rows (the columns of docs/product/entities.md, unfiltered) of a completed calculation, as a JSON array',
        params: degTaskParams,
      },
    },
    async (req, reply) => {
      const b = await degTaskResult(ctx, userOf(req), req.params.id, req.params.taskId);
      reply.type('application/json').header('cache-control', 'no-store');
      return reply.send(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    },
  );
}
