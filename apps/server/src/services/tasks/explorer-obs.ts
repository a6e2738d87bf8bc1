import type { TaskOutputs } from '@cellcloud/contracts/tasks/define';
import { findTask } from '@cellcloud/tasks/contract';
import type { AppContext } from '../../context';
import { completedWithOutputs, type CompletedTask } from './outputs';

/** A per-cell column of a completed task, with the task that wrote it and its storage key. */
export interface TaskObsColumn {
  obs: TaskOutputs['obs'][number];
  taskId: string;
  fileKey: string;
}

/** The per-cell columns of completed runs by key; of two runs with the same key the newer wins. */
function obsColumnsOf(done: readonly CompletedTask[]): Map<string, TaskObsColumn> {
  const out = new Map<string, TaskObsColumn>();
  for (const { row, outputs } of done)
    for (const o of outputs.obs)
      out.set(o.key, { obs: o, taskId: row.id, fileKey: row.output_prefix + o.file });
  return out;
}

/** The per-cell columns of the dataset's completed tasks by key; of two tasks with the same key the newer wins. */
export async function taskObsColumns(
  ctx: AppContext,
  datasetId: string,
): Promise<Map<string, TaskObsColumn>> {
  return obsColumnsOf(await completedWithOutputs(ctx, datasetId));
}

/** A layout of the cells a completed task made (its definition's `explorerEmbedding`), by name. */
export interface TaskEmbedding {
  name: string;
  dims: 2 | 3;
  taskId: string;
  /** The data file relative to the task's outputs (`data/…`). */
  file: string;
  /** Its storage key. */
  fileKey: string;
}

/**
 * The layouts completed runs made (the layout task's t-SNE, 3-D UMAP, 3-D t-SNE), by name; of two
 * runs of one name the newer wins. A run whose outputs do not list the file adds nothing.
 */
export function embeddingsOf(done: readonly CompletedTask[]): Map<string, TaskEmbedding> {
  const out = new Map<string, TaskEmbedding>();
  for (const { row, outputs } of done) {
    const def = findTask(row.task);
    const parsed = def?.explorerEmbedding ? def.params.safeParse(row.params) : undefined;
    const e = parsed?.success ? def!.explorerEmbedding!(parsed.data) : undefined;
    if (!e || !outputs.files.some((f) => f.file === e.file)) continue;
    out.set(e.name, { ...e, taskId: row.id, fileKey: row.output_prefix + e.file });
  }
  return out;
}

/**
 * The explorer's manifest.json with what the dataset's completed tasks add: their per-cell
 * columns appended to `obs` (issue 11: colour-by options and annotation levels like the
 * analysis' own), and the layouts they computed appended to `embeddings` (issue 33: a layout the
 * analysis left out, computed on demand, becomes a choice of the main view). Their `file` points
 * at the task's files route relative to the artifacts URL (`../tasks/<taskId>/files/…`), which
 * the browser resolves. A key or name already present keeps the analysis' own; of two tasks with
 * the same key the newer one wins.
 */
export async function manifestWithTaskOutputs(
  ctx: AppContext,
  datasetId: string,
  bytes: Uint8Array,
): Promise<Uint8Array> {
  const done = await completedWithOutputs(ctx, datasetId);
  const columns = obsColumnsOf(done);
  const layouts = embeddingsOf(done);
  if (!columns.size && !layouts.size) return bytes;
  const m = JSON.parse(new TextDecoder().decode(bytes)) as {
    obs: { key: string; file: string }[];
    embeddings: { name: string; dims: number; file: string }[];
  };
  const own = new Set(m.obs.map((o) => o.key));
  const added = new Map<string, { key: string; file: string }>();
  for (const [key, c] of columns) {
    if (!own.has(key)) added.set(key, { ...c.obs, file: `../tasks/${c.taskId}/files/${c.obs.file}` });
  }
  const ownLayouts = new Set(m.embeddings.map((e) => e.name));
  const addedLayouts = [...layouts.values()]
    .filter((e) => !ownLayouts.has(e.name))
    .map((e) => ({ name: e.name, dims: e.dims, file: `../tasks/${e.taskId}/files/${e.file}` }));
  if (!added.size && !addedLayouts.length) return bytes;
  m.obs.push(...added.values());
  m.embeddings.push(...addedLayouts);
  return new TextEncoder().encode(JSON.stringify(m));
}
