import { z } from 'zod';
import { childAnalysisParams } from './analysis-params';

/**
 * Job-backed differential expression of the explorer (docs/product/states.md#jobs, docs/product/validation.md, docs/product/api.md#dataset-calls `calculate_deg_task`):
 * cluster genes of a grouping (an annotation key such as `cluster`, or `subset:<id>`) or a
 * comparison of two groups (labels of any grouping, or explicit cells such as a lasso selection;
 * group B may be "the rest"). One calculation at a time per user. Results are DEG rows
 * (`degRow` of ./artifacts) at GET …/deg_tasks/{taskId}/result.
 */
export const degGroup = z.discriminatedUnion('from', [
  z
    .object({
      from: z.literal('labels'),
      key: z.string().min(1),
      labels: z.array(z.string()).min(1),
      name: z.string().max(100).optional(),
    })
    .strict(),
  z
    .object({
      from: z.literal('cells'),
      cells: z.array(z.number().int().nonnegative()).min(1),
      name: z.string().max(100).optional(),
    })
    .strict(),
  /** Every cell not in group A (only as group B). */
  z.object({ from: z.literal('rest'), name: z.string().max(100).optional() }).strict(),
]);
export type DegGroup = z.infer<typeof degGroup>;

export const calculateDegBody = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('cluster-markers'), grouping: z.string().min(1) }).strict(),
  z.object({ mode: z.literal('compare'), groupA: degGroup, groupB: degGroup }).strict(),
]);
export type CalculateDegBody = z.infer<typeof calculateDegBody>;

export const degTaskStatus = z.enum(['running', 'completed', 'failed']);

export const degTaskView = z.object({
  id: z.string(),
  datasetId: z.string(),
  mode: z.enum(['cluster-markers', 'compare']),
  grouping: z.string().nullable(),
  /** Display names of the compared groups (compare mode). */
  groupA: z.string().nullable(),
  groupB: z.string().nullable(),
  cellsA: z.number().int().nullable(),
  cellsB: z.number().int().nullable(),
  status: degTaskStatus,
  /** Failure detail (the user sees the docs/product/errors.md#messages message; this says why). */
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type DegTaskView = z.infer<typeof degTaskView>;

export const degTaskParams = z.object({ id: z.string().min(1), taskId: z.string().min(1) });

/** POST /api/user-files/svg-to-tiff?token=…: SVG text in, image/tiff out (height ≥ minHeight). */
export const svgToTiffBody = z
  .object({ svg: z.string().min(1), fileName: z.string().max(200).optional() })
  .strict();
export const SVG_TIFF_MIN_HEIGHT = 4200;

/**
 * Sub-celltype analysis (docs/product/entities.md#child-analysis-parameters, docs/product/validation.md, POST …/subcluster_task): re-cluster the cells of some labels
 * of a SUBSET (`subset:<id>`; raw cluster, major cell types and cell subtypes must be copied into a
 * subset first) as a child task, at least LIMITS.subclusterMinCells cells.
 */
export const subclusterBody = z
  .object({
    key: z.string().min(1),
    /** Labels of the subset whose cells are re-clustered; empty = every cell of the subset. */
    labels: z.array(z.string()).default([]),
    params: childAnalysisParams.prefault({}),
  })
  .strict();
export type SubclusterBody = z.input<typeof subclusterBody>;

export const childTaskView = z.object({
  /** The child analysis job (open it at /userSubCelltypeDatasetAnalysis?id=<childId>&parent=<parentId>). */
  childId: z.string(),
  parentId: z.string(),
  subsetId: z.string(),
  jobName: z.string(),
  labels: z.array(z.string()),
  nCells: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
});
export type ChildTaskView = z.infer<typeof childTaskView>;
