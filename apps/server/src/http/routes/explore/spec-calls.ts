import {
  differentialExpressionAnswer,
  differentialExpressionRequest,
  embeddingRequest,
  observationAnnotationRequest,
  observationDisplayAnswer,
  observationGeneAnswer,
  observationGeneRequest,
} from '@cellcloud/contracts/explore-spec-calls';
import { datasetIdParams } from '@cellcloud/contracts/explore';
import type { AppContext } from '../../../context';
import {
  differentialExpression,
  embeddingOf,
  observationAnnotation,
  observationDisplay,
  observationGene,
} from '../../../services/explore/spec-calls';
import type { ZodApp } from '../../app';
import { userOf } from '../../auth';
import { ok, okSchema } from '../../envelope';

const tags = ['explore'];
const base = '/api/user_datasets/:id';
const config = { auth: true };
const binary = 'application/octet-stream';
// embedding, embedding_view2 and observation_annotation_view2 answer either the JSON envelope
// (contracts: embeddingAnswer / observationAnnotationAnswer) or raw bytes (format=binary), so
// they declare no single response schema.

/**
 * docs/product/api.md#dataset-calls dataset calls under their own names (issue 22 item 9): thin reads of the stored
 * artifacts for clients written against the SPEC (contracts/explore-spec-calls.ts). JSON in the
 * envelope; `format=binary` returns the stored little-endian column as it is.
 */
export default async function specCallRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    `${base}/embedding`,
    {
      config,
      schema: {
        tags,
        summary: 'Coordinates of one embedding (docs/product/api.md: POST embedding)',
        params: datasetIdParams,
        body: embeddingRequest,
      },
    },
    async (req, reply) => {
      const e = await embeddingOf(ctx, userOf(req), req.params.id, req.body.name);
      if (req.body.format === 'binary') return reply.type(binary).send(Buffer.from(e.bytes));
      return ok(e.answer());
    },
  );
  app.get(
    `${base}/embedding_view2`,
    {
      config,
      schema: {
        tags,
        summary: 'Coordinates of one embedding (docs/product/api.md: GET embedding_view2)',
        params: datasetIdParams,
        querystring: embeddingRequest,
      },
    },
    async (req, reply) => {
      const e = await embeddingOf(ctx, userOf(req), req.params.id, req.query.name);
      if (req.query.format === 'binary') return reply.type(binary).send(Buffer.from(e.bytes));
      return ok(e.answer());
    },
  );
  app.post(
    `${base}/observation_gene`,
    {
      config,
      schema: {
        tags,
        summary:
          "One gene's non-zero values per cell (docs/product/api.md: POST observation_gene, form or JSON)",
        params: datasetIdParams,
        body: observationGeneRequest,
        response: okSchema(observationGeneAnswer),
      },
    },
    async (req) => ok(await observationGene(ctx, userOf(req), req.params.id, req.body.gene, req.body.layer)),
  );
  app.get(
    `${base}/observation_display`,
    {
      config,
      schema: {
        tags,
        summary:
          'Annotation levels (labels, counts) and continuous values (range) of the dataset (docs/product/api.md: observation_display)',
        params: datasetIdParams,
        response: okSchema(observationDisplayAnswer),
      },
    },
    async (req) => ok(await observationDisplay(ctx, userOf(req), req.params.id)),
  );
  app.get(
    `${base}/observation_annotation_view2`,
    {
      config,
      schema: {
        tags,
        summary: 'Per-cell labels or values of one level (docs/product/api.md: observation_annotation_view2)',
        params: datasetIdParams,
        querystring: observationAnnotationRequest,
      },
    },
    async (req, reply) => {
      const a = await observationAnnotation(ctx, userOf(req), req.params.id, req.query.key);
      if (req.query.format === 'binary') return reply.type(binary).send(Buffer.from(a.bytes));
      return ok(a.answer());
    },
  );
  app.get(
    `${base}/differential_expression`,
    {
      config,
      schema: {
        tags,
        summary:
          'Stored marker table of a grouping, unfiltered DEG rows (docs/product/entities.md) (docs/product/api.md: differential_expression)',
        params: datasetIdParams,
        querystring: differentialExpressionRequest,
        response: okSchema(differentialExpressionAnswer),
      },
    },
    async (req) => ok(await differentialExpression(ctx, userOf(req), req.params.id, req.query.groupBy)),
  );
}
