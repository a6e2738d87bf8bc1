import { z } from 'zod';
import { degRow } from './artifacts';

/**
 * docs/product/api.md#dataset-calls dataset calls under their own names (issue 22 item 9). The explorer itself reads the
 * binary artifact files (`/api/user_datasets/{id}/artifacts/…`, docs/artifacts.md); these thin
 * calls serve the same data for clients written against the SPEC, with the same ownership checks.
 * Small answers are JSON in the usual envelope; where a blob is natural (`format=binary`) the
 * artifact bytes are returned as they are stored (little-endian Float32 / u16 / u32).
 *
 *   POST embedding                 body { name?, format? }     → coordinates of one embedding
 *   GET  embedding_view2           ?name=&format=              → the same, as a GET
 *   POST observation_gene (form)   gene=<symbol|id>&layer=     → one gene's non-zero values
 *   GET  observation_display                                   → annotation levels and continuous values with counts/ranges
 *   GET  observation_annotation_view2 ?key=&format=            → per-cell labels of one level
 *   GET  differential_expression   ?groupBy=                   → stored marker table (unfiltered docs/product/entities.md#deg-table DEG rows)
 */
export const specCallPaths = {
  embedding: (id: string) => `/api/user_datasets/${id}/embedding`,
  embeddingView2: (id: string) => `/api/user_datasets/${id}/embedding_view2`,
  observationGene: (id: string) => `/api/user_datasets/${id}/observation_gene`,
  observationDisplay: (id: string) => `/api/user_datasets/${id}/observation_display`,
  observationAnnotationView2: (id: string) => `/api/user_datasets/${id}/observation_annotation_view2`,
  differentialExpression: (id: string) => `/api/user_datasets/${id}/differential_expression`,
} as const;

const text = z.string().min(1).max(200);
export const blobFormat = z.enum(['json', 'binary']).default('json');

export const embeddingRequest = z.object({ name: text.optional(), format: blobFormat }).strict();
export const embeddingAnswer = z.object({
  name: z.string(),
  dims: z.number().int(),
  nCells: z.number().int(),
  /** row-major nCells × dims (x0, y0[, z0], x1, …) */
  coordinates: z.array(z.number()),
});
export type EmbeddingAnswer = z.infer<typeof embeddingAnswer>;

export const observationGeneRequest = z
  .object({ gene: text, layer: z.enum(['normalized', 'counts']).default('normalized') })
  .strict();
export const observationGeneAnswer = z.object({
  gene: z.string(),
  symbol: z.string(),
  id: z.string(),
  layer: z.string(),
  nCells: z.number().int(),
  /** cells with a non-zero value and their values (all other cells are 0) */
  cells: z.array(z.number().int()),
  values: z.array(z.number()),
});

export const observationDisplayAnswer = z.object({
  nCells: z.number().int(),
  levels: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('categorical'),
        key: z.string(),
        labels: z.array(z.string()),
        counts: z.array(z.number().int()),
      }),
      z.object({ kind: z.literal('numeric'), key: z.string(), min: z.number(), max: z.number() }),
    ]),
  ),
  embeddings: z.array(z.object({ name: z.string(), dims: z.number().int() })),
});

export const observationAnnotationRequest = z.object({ key: text, format: blobFormat }).strict();
export const observationAnnotationAnswer = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('categorical'),
    key: z.string(),
    labels: z.array(z.string()),
    codes: z.array(z.number().int()),
  }),
  z.object({ kind: z.literal('numeric'), key: z.string(), values: z.array(z.number()) }),
]);

export const differentialExpressionRequest = z.object({ groupBy: text.default('cluster') }).strict();
export const differentialExpressionAnswer = z.object({ groupBy: z.string(), rows: z.array(degRow) });
