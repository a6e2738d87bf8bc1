import { createHash, randomUUID } from 'node:crypto';
import type { Locale } from '@cellcloud/contracts';
import type { CreateTaskBody, TaskTablePage, TaskView } from '@cellcloud/contracts/tasks/api';
import { speciesRefusal, type TaskDefinition, type TaskOutputs } from '@cellcloud/contracts/tasks/define';
import { findTask } from '@cellcloud/tasks/contract';
import type { AppContext, AuthUser } from '../../context';
import { analysisTasksRepo, type TaskRow } from '../../db/repos/analysis-tasks';
import { outputsOf } from './outputs';
import { exploreSubsetsRepo } from '../../db/repos/explore-subsets';
import type { JobRow } from '../../db/repos/jobs';
import { datasetAccess, type DatasetNeed } from '../sharing/access';
import { AppError } from '../../errors';
import { assertWritableDataset } from '../explore/results';
import { translate } from '../../i18n/translate';
import { currentEngineVersion } from '../jobs-cache';
import { withDefaults } from './defaults';
import './messages';
import { taskOutputPrefix, taskUploadKey } from '../../storage/keys';

/**
 * Use cases of the analysis tasks (issue 11): create (permission, species rule, params and
 * uploads validated against the task definition, cache by result + task + normalized params +
 * engine version), list/get/delete, and reads of the outputs. The job handler
 * (jobs/analysis.task.ts) runs the engine; this module never imports it.
 */

/** Storage of one task: outputs under the result, uploads beside them until the task is deleted. */
export { taskOutputPrefix, taskUploadKey };

/** The completed analysis behind an explorer dataset id (404 for a user it is not shared with). */
export async function datasetOf(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  need: DatasetNeed = 'read',
): Promise<JobRow & { resultId: string }> {
  assertWritableDataset(datasetId); // a public dataset has no tasks and takes none (read-only)
  // the central check: owner, or a share (a viewer reads, an editor also runs and deletes tasks)
  const { job } = await datasetAccess(ctx, user, datasetId, need);
  if (job.status !== 'completed') throw new AppError('CONFLICT', { status: job.status }, 'explore.notReady');
  return { ...job, resultId: job.result_of ?? job.id };
}

async function taskOf(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  need: DatasetNeed = 'read',
): Promise<TaskRow> {
  await datasetOf(ctx, user, datasetId, need);
  const row = await analysisTasksRepo.get(ctx.db, taskId);
  if (!row || row.dataset_id !== datasetId) throw new AppError('NOT_FOUND', {}, 'tasks.notFound');
  return row;
}

export function renderTaskMessage(
  row: Pick<TaskRow, 'message_key' | 'message_params'>,
  locale: Locale,
): string | null {
  if (!row.message_key) return null;
  return translate(locale, row.message_key, row.message_params ?? {});
}

export function toTaskView(r: TaskRow, locale: Locale): TaskView {
  return {
    id: r.id,
    datasetId: r.dataset_id,
    task: r.task,
    params: r.params,
    uploads: Object.fromEntries(Object.entries(r.uploads).map(([k, u]) => [k, u.fileName])),
    status: r.status,
    progress: Number(r.progress),
    step: r.step,
    message: r.status === 'failed' ? renderTaskMessage(r, locale) : null,
    cached: r.cached_from !== null,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

function stringsOf(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof v === 'string') out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsOf(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => stringsOf(x, out));
  return out;
}

/** outputs.json of a completed task (undefined when it has none, e.g. its files are gone). */
/**
 * Per-cell inputs a run can see besides the h5ad (subsets as `subset:<id>`, per-cell columns of
 * earlier completed tasks by their key) and a fingerprint of those the params name, so a cached
 * result is reused only when the columns it read are unchanged.
 */
async function referencedObs(ctx: AppContext, datasetId: string, params: unknown): Promise<string[]> {
  const named = stringsOf(params);
  const parts: string[] = [];
  for (const s of await exploreSubsetsRepo.list(ctx.db, datasetId)) {
    if (named.has(`subset:${s.id}`)) parts.push(`subset:${s.id}@${new Date(s.updated_at).toISOString()}`);
  }
  for (const t of await analysisTasksRepo.completedOfResult(ctx.db, datasetId)) {
    const out = await outputsOf(ctx, t).catch(() => undefined);
    for (const o of out?.obs ?? []) if (named.has(o.key)) parts.push(`${o.key}@${t.cached_from ?? t.id}`);
  }
  return parts.sort();
}

function checkPermission(user: AuthUser, def: TaskDefinition): void {
  if (user.blockedPrivileges.has(def.permission) || !user.privileges.has(def.permission)) {
    throw new AppError('PRIVILEGE_REQUIRED');
  }
}

function decodeUploads(
  def: TaskDefinition,
  body: CreateTaskBody,
): Record<string, { fileName: string; bytes: Uint8Array }> {
  const out: Record<string, { fileName: string; bytes: Uint8Array }> = {};
  const specs = new Map((def.uploads ?? []).map((u) => [u.name, u]));
  for (const [name, f] of Object.entries(body.uploads ?? {})) {
    const spec = specs.get(name);
    if (!spec) throw new AppError('VALIDATION_FAILED', { name }, 'tasks.upload.unknown');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.base64) || f.base64.length % 4 === 1) {
      throw new AppError('VALIDATION_FAILED', { file: f.fileName }, 'tasks.upload.base64');
    }
    const bytes = new Uint8Array(Buffer.from(f.base64, 'base64'));
    if (bytes.byteLength > spec.maxBytes) {
      throw new AppError(
        'VALIDATION_FAILED',
        { file: f.fileName, maxKb: Math.floor(spec.maxBytes / 1024) },
        'tasks.upload.tooLarge',
      );
    }
    out[name] = { fileName: f.fileName, bytes };
  }
  for (const spec of def.uploads ?? []) {
    if (spec.required && !out[spec.name])
      throw new AppError('VALIDATION_FAILED', { name: spec.name }, 'tasks.upload.required');
  }
  return out;
}

/**
 * A task that builds on an earlier one (`dependsOn`, e.g. enrich / gsea on deg-groups) names it in
 * `params.sourceTaskId`: it must be a completed run of this dataset of a task it depends on.
 */
async function checkSource(
  ctx: AppContext,
  def: TaskDefinition,
  datasetId: string,
  params: Record<string, unknown>,
): Promise<void> {
  const id = params.sourceTaskId;
  if (typeof id !== 'string') return;
  const src = await analysisTasksRepo.get(ctx.db, id);
  const ok =
    src?.dataset_id === datasetId && src.status === 'completed' && (def.dependsOn ?? []).includes(src.task);
  if (!ok)
    throw new AppError('VALIDATION_FAILED', { task: (def.dependsOn ?? []).join(', ') }, 'tasks.source');
}

/**
 * Creates a task: 404 for another user's dataset, 403 without the task's permission, 400 for a
 * species the task refuses (docs/product/validation.md#species message), invalid params or uploads; then either reuses the
 * outputs of an identical completed run (row inserted completed, `cached`) or queues `analysis.task`.
 */
export async function createTask(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: CreateTaskBody,
  locale: Locale,
): Promise<TaskView> {
  const job = await datasetOf(ctx, user, datasetId, 'write');
  const def = findTask(body.task);
  if (!def) throw new AppError('NOT_FOUND', { task: body.task }, 'tasks.unknown');
  checkPermission(user, def);
  const refusal = speciesRefusal(def.species, job.species);
  if (refusal) throw new AppError('VALIDATION_FAILED', { species: job.species }, `task.${refusal}`);
  // dataset-dependent defaults (defaults.ts) fill the absent params before validation
  const given = await withDefaults(
    ctx,
    user,
    job,
    datasetId,
    def,
    body.params ?? {},
    Object.keys(body.uploads ?? {}),
  );
  const parsed = def.params.safeParse(given);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`)
      .join('; ');
    throw new AppError('VALIDATION_FAILED', { detail }, 'task.common.invalidParams');
  }
  const params = sortKeys(parsed.data) as Record<string, unknown>;
  await checkSource(ctx, def, datasetId, params);
  const uploads = decodeUploads(def, body);
  const uploadHashes = Object.fromEntries(
    Object.entries(uploads).map(([k, u]) => [k, createHash('sha256').update(u.bytes).digest('hex')]),
  );
  const obs = await referencedObs(ctx, datasetId, params);
  const paramsHash = createHash('sha256')
    .update(JSON.stringify({ params, uploads: sortKeys(uploadHashes), obs }))
    .digest('hex');
  const id = randomUUID();
  const storedUploads: TaskRow['uploads'] = {};
  for (const [name, u] of Object.entries(uploads)) {
    const key = taskUploadKey(job.resultId, id, name);
    await ctx.storage.put(key, u.bytes);
    storedUploads[name] = { fileName: u.fileName, key, sha256: uploadHashes[name]! };
  }
  const common = {
    id,
    userId: job.user_id, // storage, quotas and the notification stay the owner's (an editor may run it)
    datasetId,
    resultId: job.resultId,
    task: def.name,
    params,
    uploads: storedUploads,
    paramsHash,
    engineVersion: currentEngineVersion(ctx.config.resourcesDir),
  };
  const hit = await analysisTasksRepo.findCached(ctx.db, {
    resultId: job.resultId,
    task: def.name,
    paramsHash,
    engineVersion: common.engineVersion,
  });
  if (hit && (await ctx.storage.stat(`${hit.output_prefix}outputs.json`))) {
    const row = await analysisTasksRepo.insert(ctx.db, {
      ...common,
      outputPrefix: hit.output_prefix,
      cachedFrom: hit.id,
    });
    return toTaskView(row, locale);
  }
  const row = await analysisTasksRepo.insert(ctx.db, {
    ...common,
    outputPrefix: taskOutputPrefix(job.resultId, id),
  });
  try {
    const bossId = await ctx.queue.send(
      'analysis.task',
      { taskId: id },
      { expireInSeconds: def.timeoutMinutes * 60 },
    );
    await analysisTasksRepo.setBossJob(ctx.db, id, bossId);
  } catch (e) {
    await analysisTasksRepo.fail(ctx.db, id, 'task.common.internal', {});
    throw e;
  }
  return toTaskView(row, locale);
}

export async function listTasks(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  task: string | undefined,
  locale: Locale,
): Promise<TaskView[]> {
  await datasetOf(ctx, user, datasetId);
  return (await analysisTasksRepo.list(ctx.db, datasetId, task)).map((r) => toTaskView(r, locale));
}

export async function getTask(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  locale: Locale,
): Promise<TaskView> {
  return toTaskView(await taskOf(ctx, user, datasetId, taskId), locale);
}

/** Deletes the row, its uploads and — unless other rows reuse them — its outputs. */
export async function deleteTask(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
): Promise<void> {
  const row = await taskOf(ctx, user, datasetId, taskId, 'write');
  await analysisTasksRepo.delete(ctx.db, row.id);
  for (const u of Object.values(row.uploads)) await ctx.storage.delete(u.key).catch(() => {});
  if (row.cached_from === null) {
    const users = await analysisTasksRepo.cacheUsers(ctx.db, row.id);
    if (users.length === 0) await ctx.storage.delete(row.output_prefix).catch(() => {});
  }
}

/** A completed task of the user (409 with the docs/product/states.md#annotation-labels "processing / failed" message otherwise). */
async function completedTask(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  locale: Locale,
): Promise<TaskRow> {
  const row = await taskOf(ctx, user, datasetId, taskId);
  if (row.status === 'failed')
    throw new AppError('CONFLICT', { message: renderTaskMessage(row, locale) ?? '' }, 'tasks.failed');
  if (row.status !== 'completed') throw new AppError('CONFLICT', {}, 'tasks.running');
  return row;
}

export async function taskOutputsOf(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  locale: Locale,
): Promise<{ outputs: TaskOutputs; summary: unknown }> {
  const row = await completedTask(ctx, user, datasetId, taskId, locale);
  const outputs = await outputsOf(ctx, row);
  if (!outputs) throw new AppError('NOT_FOUND', { name: 'outputs.json' }, 'tasks.noSuchOutput');
  const summary = JSON.parse(
    new TextDecoder().decode(await ctx.storage.getBytes(`${row.output_prefix}summary.json`)),
  ) as unknown;
  return { outputs, summary };
}

/** Storage key and size of one output file (a manifest entry: tables/…, obs/…, data/…). */
export async function taskFile(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  rel: string,
  locale: Locale,
): Promise<{ key: string; size: number; mtime: Date }> {
  const row = await completedTask(ctx, user, datasetId, taskId, locale);
  const outputs = await outputsOf(ctx, row);
  const listed = new Set([
    ...(outputs?.tables ?? []).map((t) => t.file),
    ...(outputs?.obs ?? []).map((o) => o.file),
    ...(outputs?.files ?? []).map((f) => f.file),
    'summary.json',
    'outputs.json',
  ]);
  if (!listed.has(rel)) throw new AppError('NOT_FOUND', { name: rel }, 'tasks.noSuchOutput');
  const key = row.output_prefix + rel;
  const st = await ctx.storage.stat(key);
  if (!st) throw new AppError('FILE_NOT_FOUND');
  return { key, size: st.size, mtime: st.mtime };
}

/** A table by name: the CSV key (format=csv) or a page of parsed rows. */
export async function taskTable(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  name: string,
  page: { offset: number; limit: number },
  locale: Locale,
): Promise<TaskTablePage> {
  const row = await completedTask(ctx, user, datasetId, taskId, locale);
  const t = (await outputsOf(ctx, row))?.tables.find((x) => x.name === name);
  if (!t) throw new AppError('NOT_FOUND', { name }, 'tasks.noSuchOutput');
  const { csvRows } = await import('./csv');
  const all = csvRows(new TextDecoder().decode(await ctx.storage.getBytes(row.output_prefix + t.file)));
  const body = all.slice(1);
  return {
    columns: t.columns,
    rows: body.slice(page.offset, page.offset + page.limit),
    offset: page.offset,
    total: body.length,
  };
}

export async function taskTableFile(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  taskId: string,
  name: string,
  locale: Locale,
): Promise<{ key: string; file: string }> {
  const row = await completedTask(ctx, user, datasetId, taskId, locale);
  const t = (await outputsOf(ctx, row))?.tables.find((x) => x.name === name);
  if (!t) throw new AppError('NOT_FOUND', { name }, 'tasks.noSuchOutput');
  return { key: row.output_prefix + t.file, file: t.file };
}
