import { z } from 'zod';

/**
 * Sharing an analysis and attributed annotation (issue 35, docs/product/sharing.md).
 * `POST/GET /api/user_datasets/{id}/shares`, `PATCH/DELETE …/shares/{shareId}` (owner only),
 * `GET /api/shared_datasets` (analyses shared with the caller),
 * `GET /api/user_datasets/{id}/annotation_levels/{level}/history` and its restore call,
 * `PUT …/observation_subset/{subsetId}/notes` (a label's note and marker genes).
 */
export const shareRole = z.enum(['viewer', 'editor']);
export type ShareRole = z.infer<typeof shareRole>;
/** What a user may do with a dataset: its owner, or the role of a share. */
export type DatasetRole = 'owner' | ShareRole;

export const createShareBody = z
  .object({
    /** user name or e-mail of another user of the installation */
    user: z.string().trim().min(1, 'sharing.user.required').max(200),
    role: shareRole,
  })
  .strict();
export type CreateShareBody = z.infer<typeof createShareBody>;

export const updateShareBody = z.object({ role: shareRole }).strict();

export const shareIdParams = z.object({ id: z.string().min(1), shareId: z.string().min(1) });

export const shareView = z.object({
  id: z.string(),
  datasetId: z.string(),
  role: shareRole,
  user: z.object({ id: z.string(), username: z.string(), email: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShareView = z.infer<typeof shareView>;

/** An analysis shared with the caller ("Shared with me" of My Analyses). */
export const sharedDatasetView = z.object({
  shareId: z.string(),
  datasetId: z.string(),
  jobName: z.string(),
  species: z.string(),
  role: shareRole,
  owner: z.object({ id: z.string(), username: z.string() }),
  sharedAt: z.string(),
});
export type SharedDatasetView = z.infer<typeof sharedDatasetView>;

/** The caller's role on a dataset (the explorer hides saving for a viewer). */
export const datasetRoleView = z.object({ role: z.enum(['owner', 'viewer', 'editor']) });

export const historyAction = z.enum(['create', 'rename', 'relabel', 'colours', 'notes', 'restore']);
export type HistoryAction = z.infer<typeof historyAction>;

export const labelNote = z.object({
  note: z.string().max(2000),
  markers: z.array(z.string().trim().min(1).max(60)).max(50),
});
export type LabelNote = z.infer<typeof labelNote>;

export const historyEntryView = z.object({
  version: z.number().int(),
  action: historyAction,
  author: z.object({ id: z.string(), username: z.string() }).nullable(),
  createdAt: z.string(),
  /** cells whose label changed */
  cells: z.number().int(),
  /** before → after label pairs and their cells */
  changes: z.array(z.object({ before: z.string(), after: z.string(), cells: z.number().int() })),
  name: z.string(),
  labels: z.array(z.string()),
  notes: z.record(z.string(), labelNote),
  restoredFrom: z.number().int().nullable(),
});
export type HistoryEntryView = z.infer<typeof historyEntryView>;

export const levelParams = z.object({ id: z.string().min(1), level: z.string().min(1).max(200) });
export const restoreParams = levelParams.extend({ version: z.coerce.number().int().min(1) });

export const notesBody = z
  .object({
    subsetId: z.string().min(1),
    label: z.string().min(1).max(100),
    note: labelNote.shape.note,
    markers: labelNote.shape.markers,
    /** the version the editor saw; a later one answers 409 */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const restoreBody = z.object({ expectedVersion: z.number().int().min(1).optional() }).strict();
