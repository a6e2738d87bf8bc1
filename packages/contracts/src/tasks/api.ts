import { z } from 'zod';
import { taskOutputs, taskStatus } from './define';

/**
 * REST API of the analysis tasks (issue 11). `:id` is the explorer's dataset id (the analysis
 * job id); every route answers 404 for a dataset or task of another user.
 *
 *   POST   /api/user_datasets/:id/tasks                      create (JSON body createTaskBody)
 *   GET    /api/user_datasets/:id/tasks[?task=<name>]         list, newest first
 *   GET    /api/user_datasets/:id/tasks/defaults?task=<name>[&uploads=a,b]  params a run with nothing chosen takes (taskDefaultsView)
 *   GET    /api/user_datasets/:id/tasks/:taskId               one task
 *   DELETE /api/user_datasets/:id/tasks/:taskId               delete (row + its stored outputs)
 *   GET    /api/user_datasets/:id/tasks/:taskId/outputs       { outputs (outputs.json), summary }
 *   GET    /api/user_datasets/:id/tasks/:taskId/tables/:name  ?format=json&offset&limit → a page of rows; ?format=csv → the file
 *   GET    /api/user_datasets/:id/tasks/:taskId/files/<path>  obs/… and data/… files (HTTP Range)
 *
 * Uploaded files (gene set csv, GMT, …) travel in the create body as base64
 * (`uploads: { <name>: { fileName, base64 } }`, names from the definition's `uploads`); the
 * server checks each against the definition's maxBytes and hands the bytes to the engine.
 */
export const TASK_API = {
  list: (datasetId: string) => `/api/user_datasets/${encodeURIComponent(datasetId)}/tasks`,
  defaults: (datasetId: string, task: string, uploads: readonly string[] = []) =>
    `/api/user_datasets/${encodeURIComponent(datasetId)}/tasks/defaults?task=${encodeURIComponent(task)}` +
    (uploads.length ? `&uploads=${encodeURIComponent(uploads.join(','))}` : ''),
  one: (datasetId: string, taskId: string) =>
    `/api/user_datasets/${encodeURIComponent(datasetId)}/tasks/${encodeURIComponent(taskId)}`,
  outputs: (datasetId: string, taskId: string) => `${TASK_API.one(datasetId, taskId)}/outputs`,
  table: (datasetId: string, taskId: string, name: string) =>
    `${TASK_API.one(datasetId, taskId)}/tables/${encodeURIComponent(name)}`,
  file: (datasetId: string, taskId: string, file: string) =>
    `${TASK_API.one(datasetId, taskId)}/files/${file.split('/').map(encodeURIComponent).join('/')}`,
} as const;

/** Route patterns (Fastify syntax) of TASK_API. */
export const TASK_ROUTES = {
  list: '/api/user_datasets/:id/tasks',
  defaults: '/api/user_datasets/:id/tasks/defaults',
  one: '/api/user_datasets/:id/tasks/:taskId',
  outputs: '/api/user_datasets/:id/tasks/:taskId/outputs',
  table: '/api/user_datasets/:id/tasks/:taskId/tables/:name',
  file: '/api/user_datasets/:id/tasks/:taskId/files/*',
} as const;

export const taskUploadField = z
  .object({
    fileName: z.string().min(1).max(255),
    /** File content, base64 (standard alphabet). */
    base64: z.string().max(30_000_000),
  })
  .strict();

export const createTaskBody = z
  .object({
    task: z.string().min(1).max(100),
    /** Parameters of the task (validated by the task's own strict schema). */
    params: z.record(z.string(), z.unknown()).default({}),
    uploads: z.record(z.string(), taskUploadField).optional(),
  })
  .strict();
export type CreateTaskBody = z.infer<typeof createTaskBody>;

export const taskView = z.object({
  id: z.string(),
  datasetId: z.string(),
  task: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** Names of the uploaded files, by upload field. */
  uploads: z.record(z.string(), z.string()),
  status: taskStatus,
  /** 0–1 */
  progress: z.number(),
  step: z.string().nullable(),
  /** Failure reason in the reader's language (null unless failed). */
  message: z.string().nullable(),
  /** True when the outputs were reused from an identical earlier task (same result, params, engine). */
  cached: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TaskView = z.infer<typeof taskView>;

export const taskIdParams = z.object({ id: z.string().min(1), taskId: z.string().min(1) });
export const taskListQuery = z.object({ task: z.string().optional() });

export const taskOutputsView = z.object({ outputs: taskOutputs, summary: z.unknown() });
export type TaskOutputsView = z.infer<typeof taskOutputsView>;

export const taskTableQuery = z.object({
  format: z.enum(['json', 'csv']).default('json'),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(500),
});
export const taskTablePage = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  offset: z.number().int(),
  total: z.number().int(),
});
export type TaskTablePage = z.infer<typeof taskTablePage>;

export const taskDefaultsQuery = z.object({
  task: z.string().min(1).max(100),
  /** Names of the task's uploads the form holds a file for, comma-separated (e.g. a gene set file replaces the default built-in set). */
  uploads: z.string().max(500).optional(),
});

/** A field resolved (or not) from the dataset, with the reason in the reader's language. */
const defaultReason = z.object({ field: z.string(), text: z.string() });

/**
 * Defaults of a task computed from the dataset (issue 31; rules per task in the "Defaults"
 * section of docs/methods/<task>.md): what a create with `params: {}` fills in. `params` holds
 * only the dataset-dependent fields (the schema's own defaults apply to the rest); `missing`
 * lists required fields no rule could fill — a run without them is refused with that text.
 */
export const taskDefaultsView = z.object({
  task: z.string(),
  params: z.record(z.string(), z.unknown()),
  reasons: z.array(defaultReason),
  missing: z.array(defaultReason),
});
export type TaskDefaultsView = z.infer<typeof taskDefaultsView>;
