import { z } from 'zod';
import {
  colourManagerBody,
  createSubsetBody,
  datasetIdParams,
  editSubsetBody,
  mapCellTypeBody,
  mergeSubsetBody,
  subsetIdParams,
  subsetView,
} from '@cellcloud/contracts/explore';
import type { AppContext } from '../../../context';
import {
  createSubset,
  deleteSubset,
  editSubset,
  getSubset,
  listSubsets,
  mergeClusters,
  setColours,
  subsetCodesBytes,
} from '../../../services/explore/subsets';
import { userOf } from '../../auth';
import { ok, okSchema } from '../../envelope';
import type { ZodApp } from '../../app';

const tags = ['explore'];
const base = '/api/user_datasets/:id';

/** Subsets of an analysed dataset under the docs/product/api.md#dataset-calls names (observation_subset, …_edit_, …_merge_, map_cell_type, observation_color_manager). */
export default async function subsetRoutes(app: ZodApp, ctx: AppContext) {
  const list = okSchema(z.array(subsetView));
  const one = okSchema(subsetView);
  app.get(
    `${base}/observation_subset`,
    {
      config: { auth: true },
      schema: { tags, summary: 'Subsets of the dataset', params: datasetIdParams, response: list },
    },
    async (req) => ok(await listSubsets(ctx, userOf(req), req.params.id)),
  );
  app.post(
    `${base}/observation_subset`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Create a subset from a selection or labels, or copy an annotation level / subset',
        params: datasetIdParams,
        body: createSubsetBody,
        response: one,
      },
    },
    async (req) => ok(await createSubset(ctx, userOf(req), req.params.id, req.body)),
  );
  app.delete(
    `${base}/observation_subset/:subsetId`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Delete a subset (refused while it has child tasks)',
        params: subsetIdParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await deleteSubset(ctx, userOf(req), req.params.id, req.params.subsetId);
      return ok(null);
    },
  );
  app.get(
    `${base}/observation_subset/:subsetId/codes`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Per-cell label index of a subset: little-endian u32, 0xFFFFFFFF = not in the subset',
        params: subsetIdParams,
      },
    },
    async (req, reply) => {
      const b = await subsetCodesBytes(ctx, userOf(req), req.params.id, req.params.subsetId);
      reply.type('application/octet-stream').header('cache-control', 'no-store');
      return reply.send(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    },
  );
  const bySubset = z.object({ subsetId: z.string().min(1) });
  app.get(
    `${base}/observation_edit_subset`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'One subset (labels, counts, colours, state) before editing',
        params: datasetIdParams,
        querystring: bySubset,
        response: one,
      },
    },
    async (req) => ok(await getSubset(ctx, userOf(req), req.params.id, req.query.subsetId)),
  );
  app.get(
    `${base}/observation_color_manager`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Colours of a subset’s clusters (null = palette default)',
        params: datasetIdParams,
        querystring: bySubset,
        response: okSchema(
          z.object({ labels: z.array(z.string()), colours: z.array(z.string().nullable()) }),
        ),
      },
    },
    async (req) => {
      const s = await getSubset(ctx, userOf(req), req.params.id, req.query.subsetId);
      return ok({ labels: s.labels, colours: s.colours });
    },
  );
  app.post(
    `${base}/observation_edit_subset`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Rename a subset and/or its clusters (equal names merge)',
        params: datasetIdParams,
        body: editSubsetBody,
        response: one,
      },
    },
    async (req) => ok(await editSubset(ctx, userOf(req), req.params.id, req.body)),
  );
  app.post(
    `${base}/observation_merge_subset`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Merge clusters into one; cluster genes must be calculated again',
        params: datasetIdParams,
        body: mergeSubsetBody,
        response: one,
      },
    },
    async (req) => ok(await mergeClusters(ctx, userOf(req), req.params.id, req.body)),
  );
  app.post(
    `${base}/map_cell_type`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Map cluster labels to cell types',
        params: datasetIdParams,
        body: mapCellTypeBody,
        response: one,
      },
    },
    async (req) =>
      ok(
        await editSubset(ctx, userOf(req), req.params.id, {
          subsetId: req.body.subsetId,
          renames: req.body.mapping,
          expectedVersion: req.body.expectedVersion,
        }),
      ),
  );
  app.post(
    `${base}/observation_color_manager`,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Custom #RRGGBB colours of clusters (unique within the subset)',
        params: datasetIdParams,
        body: colourManagerBody,
        response: one,
      },
    },
    async (req) => ok(await setColours(ctx, userOf(req), req.params.id, req.body)),
  );
}
