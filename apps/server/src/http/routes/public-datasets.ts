import {
  PUBLIC_ROUTES,
  datasetMappingRelation,
  datasetRelation,
  publicDatasetDetail,
  publicSearchQuery,
  publicSearchResult,
} from '@cellcloud/contracts/public-datasets';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../context';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
import { AppError } from '../../errors';
import { assertPublicAccess } from '../../services/public-datasets/access';

export { assertPublicAccess };
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import type { ZodApp } from '../app';

const tags = ['public datasets'];
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * The public standardized dataset database (issue 20): search with facets, detail, withdrawal
 * (administrators), and the docs/product/api.md#public-dataset-calls remote calls:
 *  - `GET remote dataset detail` → the catalogue detail (same body as GET /api/public_datasets/:id);
 *  - `GET dataset_relation` → the caller's analyses that integrated public datasets, with their ids;
 *  - `GET remote dataset_mapping_relation` → the dataset's annotation levels with each value's cell
 *    count, and the annot_sub → annot_full (Cell Ontology lineage) mapping used at ingest.
 */
export default async function publicDatasetRoutes(app: ZodApp, ctx: AppContext) {
  const detail = async (u: AuthUser, id: string) => {
    assertPublicAccess(u);
    const d = await publicDatasetsRepo.get(ctx.db, id);
    if (!d) throw new AppError('NOT_FOUND');
    return d;
  };

  app.get(
    PUBLIC_ROUTES.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Search the public datasets (full text, facets, sort, page)',
        querystring: publicSearchQuery,
        response: okSchema(publicSearchResult),
      },
    },
    async (req) => {
      assertPublicAccess(userOf(req));
      return ok(await publicDatasetsRepo.search(ctx.db, req.query));
    },
  );
  app.get(
    PUBLIC_ROUTES.one,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'A public dataset',
        params: idParams,
        response: okSchema(publicDatasetDetail),
      },
    },
    async (req) => ok(await detail(userOf(req), req.params.id)),
  );
  app.post(
    PUBLIC_ROUTES.withdraw,
    {
      config: { admin: true },
      schema: {
        tags,
        summary: 'Withdraw (hide) a public dataset — administrators',
        params: idParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      if (!(await publicDatasetsRepo.withdraw(ctx.db, req.params.id))) throw new AppError('NOT_FOUND');
      return ok(null);
    },
  );
  app.get(
    PUBLIC_ROUTES.remoteDetail,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Remote dataset detail (docs/product/api.md)',
        params: idParams,
        response: okSchema(publicDatasetDetail),
      },
    },
    async (req) => ok(await detail(userOf(req), req.params.id)),
  );
  app.get(
    PUBLIC_ROUTES.datasetRelation,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'dataset_relation (docs/product/api.md): my analyses that used public datasets',
        response: okSchema(datasetRelation),
      },
    },
    async (req) => {
      const u = userOf(req);
      assertPublicAccess(u);
      return ok(await publicDatasetsRepo.relations(ctx.db, u.id));
    },
  );
  app.get(
    PUBLIC_ROUTES.datasetMappingRelation,
    {
      config: { auth: true },
      schema: {
        tags,
        summary:
          'Remote dataset_mapping_relation (docs/product/api.md): annotation levels and the lineage mapping',
        params: idParams,
        response: okSchema(datasetMappingRelation),
      },
    },
    async (req) => {
      assertPublicAccess(userOf(req));
      const r = await publicDatasetsRepo.mappingRelation(ctx.db, req.params.id);
      if (!r) throw new AppError('NOT_FOUND');
      return ok(r);
    },
  );
}
