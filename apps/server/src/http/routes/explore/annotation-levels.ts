import { z } from 'zod';
import {
  annotationLevelView,
  celltypeHierarchyAnswer,
  embeddingAnnotationAnswer,
  embeddingAnnotationQuery,
  saveAnnotationBody,
} from '@cellcloud/contracts/annotation-levels';
import { datasetIdParams, subsetView } from '@cellcloud/contracts/explore';
import type { AppContext } from '../../../context';
import {
  celltypeHierarchy,
  embeddingAnnotation,
  listAnnotationLevels,
  saveAnnotation,
} from '../../../services/explore/annotation-levels';
import type { ZodApp } from '../../app';
import { userOf } from '../../auth';
import { ok, okSchema } from '../../envelope';

const tags = ['explore'];
const base = '/api/user_datasets/:id';
const config = { auth: true };

/** docs/product/api.md#annotation-calls annotation calls (issue 13): levels, hand edits saved as a new level, per-cluster labels, hierarchy. */
export default async function annotationLevelRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    `${base}/observation_annotation`,
    {
      config,
      schema: {
        tags,
        summary: 'Annotation levels with labels and counts (docs/product/api.md: GET observation_annotation)',
        params: datasetIdParams,
        response: okSchema(z.array(annotationLevelView)),
      },
    },
    async (req) => ok(await listAnnotationLevels(ctx, userOf(req), req.params.id)),
  );
  app.post(
    `${base}/observation_annotation`,
    {
      config,
      schema: {
        tags,
        summary:
          'Save a hand-edited level (renames/merges) as a new level (docs/product/api.md: POST observation_annotation)',
        params: datasetIdParams,
        body: saveAnnotationBody,
        response: okSchema(subsetView),
      },
    },
    async (req) => ok(await saveAnnotation(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    `${base}/embedding_annotation`,
    {
      config,
      schema: {
        tags,
        summary:
          'Majority label and confidence per cluster of a level (docs/product/api.md: GET embedding_annotation)',
        params: datasetIdParams,
        querystring: embeddingAnnotationQuery,
        response: okSchema(embeddingAnnotationAnswer),
      },
    },
    async (req) =>
      ok(await embeddingAnnotation(ctx, userOf(req), req.params.id, req.query.key, req.query.clusterKey)),
  );
  app.post(
    `${base}/embedding_annotation`,
    {
      config,
      schema: {
        tags,
        summary:
          'Save labels edited on the embedding as a new level (docs/product/api.md: POST embedding_annotation)',
        params: datasetIdParams,
        body: saveAnnotationBody,
        response: okSchema(subsetView),
      },
    },
    async (req) => ok(await saveAnnotation(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    `${base}/celltype_hierarchy2`,
    {
      config,
      schema: {
        tags,
        summary:
          'annot_full → annot_sub → annot_sub2 hierarchy (docs/product/api.md: GET celltype_hierarchy2)',
        params: datasetIdParams,
        response: okSchema(celltypeHierarchyAnswer),
      },
    },
    async (req) => ok(await celltypeHierarchy(ctx, userOf(req), req.params.id)),
  );
}
