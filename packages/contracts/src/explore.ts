import { z } from 'zod';
import { labelNote } from './sharing';

/**
 * Explorer subsets (docs/product/states.md#subsets, docs/product/api.md#dataset-calls `user_datasets/{id}/observation_*`): an editable cell grouping of
 * one analysed dataset. Created from a lasso selection, from chosen labels of an annotation, or as
 * a copy of an annotation level (raw cluster, major cell types and cell subtypes must be copied
 * before they are edited, subclustered or extracted). Per-cell codes are binary (u32, one per cell,
 * 0xFFFFFFFF = cell not in the subset) at GET …/observation_subset/{subsetId}/codes.
 */
export const NOT_IN_SUBSET = 0xffffffff;

export const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'explore.colour.invalid');

export const clusterGenesState = z.enum(['none', 'stale', 'running', 'failed', 'done']);

export const subsetView = z.object({
  id: z.string(),
  datasetId: z.string(),
  name: z.string(),
  /** Annotation key it was copied or created from. */
  sourceKey: z.string().nullable(),
  labels: z.array(z.string()),
  /** One #RRGGBB per label, or null for the palette default. */
  colours: z.array(hexColour.nullable()),
  /** Cells per label (same order as labels). */
  counts: z.array(z.number().int()),
  nCells: z.number().int(),
  clusterGenes: clusterGenesState,
  hasChildTasks: z.boolean(),
  /** bumped by every change (docs/product/sharing.md#annotation-history); a save names the version it saw */
  version: z.number().int(),
  /** per label: a note and the marker genes that justified it */
  notes: z.record(z.string(), labelNote),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SubsetView = z.infer<typeof subsetView>;

/** Annotation and subset names: no special symbols or Chinese, no leading digit or symbol (docs/product/validation.md#annotation-and-cluster-names). */
export const subsetName = z
  .string()
  .trim()
  .min(1, 'explore.name.required')
  .max(100, 'explore.name.tooLong')
  .regex(/^[A-Za-z_][A-Za-z0-9_. -]*$/, 'explore.name.invalid');

/** Cluster names: no special characters (docs/product/validation.md#annotation-and-cluster-names). */
export const clusterName = z
  .string()
  .trim()
  .min(1, 'explore.name.required')
  .max(100, 'explore.name.tooLong')
  .regex(/^[A-Za-z0-9_. +-]+$/, 'explore.clusterName.invalid');

export const createSubsetBody = z.discriminatedUnion('from', [
  /** Lasso / click selection: the chosen cells form one label. */
  z
    .object({
      from: z.literal('cells'),
      name: subsetName,
      label: clusterName,
      cells: z.array(z.number().int().nonnegative()).min(1),
    })
    .strict(),
  /** Cells carrying some labels of an annotation (or of another subset). */
  z
    .object({
      from: z.literal('labels'),
      name: subsetName,
      key: z.string().min(1),
      labels: z.array(z.string()).min(1),
    })
    .strict(),
  /** Copy of a whole annotation level or subset (POST copy). */
  z.object({ from: z.literal('copy'), name: subsetName, key: z.string().min(1) }).strict(),
]);
export type CreateSubsetBody = z.infer<typeof createSubsetBody>;

/** `key` of an annotation artifact, or `subset:<id>` for a subset. */
export const subsetKey = (id: string) => `subset:${id}`;

export const editSubsetBody = z
  .object({
    subsetId: z.string().min(1),
    name: subsetName.optional(),
    /** old label → new label; equal new names merge those clusters */
    renames: z.record(z.string(), clusterName).optional(),
    /** the version the editor saw; a later one answers 409 (docs/product/sharing.md) */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const mergeSubsetBody = z
  .object({
    subsetId: z.string().min(1),
    labels: z.array(z.string()).min(2),
    into: clusterName,
    /** the version the editor saw; a later one answers 409 (docs/product/sharing.md) */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const mapCellTypeBody = z
  .object({
    subsetId: z.string().min(1),
    mapping: z.record(z.string(), clusterName),
    /** the version the editor saw; a later one answers 409 (docs/product/sharing.md) */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const colourManagerBody = z
  .object({
    subsetId: z.string().min(1),
    colours: z.record(z.string(), hexColour),
    /** the version the editor saw; a later one answers 409 (docs/product/sharing.md) */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const subsetIdParams = z.object({ id: z.string().min(1), subsetId: z.string().min(1) });
export const datasetIdParams = z.object({ id: z.string().min(1) });
