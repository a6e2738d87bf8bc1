import { cellFilteringStatus, draftView, valueKind } from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { listAnalysableSamples } from '../../services/files/analysable';
import { jobsDeps } from '../../services/jobs-wire';
import { userOf } from '../auth';
import { assertPublicAccess } from '../../services/public-datasets/access';
import { ok, okSchema } from '../envelope';
import type { ZodApp } from '../app';
import { ROUTES } from '@cellcloud/contracts/api-paths';

const tags = ['wizard'];
const idParams = z.object({ id: z.string().min(1) });
const sample = z.object({
  id: z.string(),
  name: z.string(),
  species: z.string().nullable(),
  cells: z.number().int(),
  genes: z.number().int(),
  format: z.string(),
  /** Median counts per cell and the value kind: what the wizard's plate-based preset looks at. */
  umiMedian: z.number(),
  valueKind,
});
const cellFiltering = z.object({
  status: cellFilteringStatus,
  message: z.string().nullable(),
  result: z.unknown(),
});

/** The initiate-analysis wizard: selectable samples, drafts, and the cell-filtering evaluation. */
export default async function draftRoutes(app: ZodApp, ctx: AppContext) {
  const svc = () => jobsDeps(ctx).drafts;

  app.get(
    ROUTES.drafts.samples,
    {
      config: { auth: true },
      schema: {
        tags,
        summary:
          'Samples that may be analysed (Completed uploads; with ?source=public|both also public datasets)',
        querystring: z.object({ source: z.enum(['local', 'public', 'both']).default('local') }),
        response: okSchema(z.array(sample)),
      },
    },
    async (req) => {
      const { source } = req.query;
      if (source !== 'local') assertPublicAccess(userOf(req));
      const all = await listAnalysableSamples(ctx, userOf(req).id, { includePublic: source !== 'local' });
      const rows = all.filter((s) => (source === 'public' ? s.uploadId.startsWith('public:') : true));
      return ok(
        rows.map((s) => ({
          id: s.uploadId,
          name: s.sampleName,
          species: s.properties.species,
          cells: s.properties.cells,
          genes: s.properties.genes,
          format: s.format,
          umiMedian: s.properties.umi?.median ?? 0,
          valueKind: s.properties.valueKind ?? (s.properties.nonInteger ? 'nonIntegerCounts' : 'counts'),
        })),
      );
    },
  );

  app.get(
    ROUTES.drafts.list,
    {
      config: { auth: true },
      schema: { tags, summary: 'My drafts', response: okSchema(z.array(draftView)) },
    },
    async (req) => ok(await svc().list(userOf(req))),
  );
  app.post(
    ROUTES.drafts.list,
    {
      config: { auth: true },
      schema: { tags, summary: 'Save a new draft', body: z.unknown(), response: okSchema(draftView) },
    },
    async (req) => ok(await svc().save(userOf(req), req.body)),
  );
  app.get(
    ROUTES.drafts.one,
    { config: { auth: true }, schema: { tags, params: idParams, response: okSchema(draftView) } },
    async (req) => ok(await svc().get(userOf(req), req.params.id)),
  );
  app.put(
    ROUTES.drafts.one,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Save a draft',
        params: idParams,
        body: z.unknown(),
        response: okSchema(draftView),
      },
    },
    async (req) => ok(await svc().save(userOf(req), req.body, req.params.id)),
  );
  app.delete(
    ROUTES.drafts.one,
    { config: { auth: true }, schema: { tags, params: idParams, response: okSchema(z.null()) } },
    async (req) => {
      await svc().delete(userOf(req), req.params.id);
      return ok(null);
    },
  );

  app.post(
    ROUTES.drafts.cellFiltering,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Evaluate cell filtering (start or retry)',
        params: idParams,
        response: okSchema(draftView),
      },
    },
    async (req) => ok(await svc().startCellFiltering(userOf(req), req.params.id)),
  );
  app.get(
    ROUTES.drafts.cellFiltering,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Evaluation state and result',
        params: idParams,
        response: okSchema(cellFiltering),
      },
    },
    async (req) => ok(await svc().cellFilteringResult(userOf(req), req.params.id)),
  );
  app.delete(
    ROUTES.drafts.cellFiltering,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: 'Discard the evaluation (going back)',
        params: idParams,
        response: okSchema(draftView),
      },
    },
    async (req) => ok(await svc().discardCellFiltering(userOf(req), req.params.id)),
  );
}
