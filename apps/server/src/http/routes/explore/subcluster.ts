import { z } from 'zod';
import { datasetIdParams } from '@cellcloud/contracts/explore';
import { childTaskView, subclusterBody } from '@cellcloud/contracts/explore-deg';
import type { AppContext } from '../../../context';
import { listChildTasks, startSubcluster } from '../../../services/explore/subcluster';
import { userOf } from '../../auth';
import { ok, okSchema } from '../../envelope';
import type { ZodApp } from '../../app';

const tags = ['explore'];

/** Sub-celltype analysis: start a child task of a subset (≥ 100 cells) and list the children. */
export default async function subclusterRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    '/api/user_datasets/:id/subcluster_task',
    {
      config: { auth: true },
      schema: {
        tags,
        summary:
          'Re-cluster cells of a subset (labels, ≥ 100 cells) as a child analysis with the docs/product/entities.md child parameters; opens at /userSubCelltypeDatasetAnalysis?id=<childId>&parent=<id>',
        params: datasetIdParams,
        body: subclusterBody,
        response: okSchema(childTaskView),
      },
    },
    async (req) => ok(await startSubcluster(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    '/api/user_datasets/:id/child_tasks',
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Sub-celltype (child) analyses of the dataset, newest first',
        params: datasetIdParams,
        response: okSchema(z.array(childTaskView)),
      },
    },
    async (req) => ok(await listChildTasks(ctx, userOf(req), req.params.id)),
  );
}
