import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { findTask } from '@cellcloud/tasks/contract';
import { ENGINE_TASKS } from '@cellcloud/tasks/engine';
import { resultHandleFromDataset, runTask } from '@cellcloud/engine/tasks/kit';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { extraColumn, type ExtraObsSource } from './extra-obs';
import type { ChildMain } from './runner-child-process';
import { readStoredResult } from './runner-child-io';
import { storedSourceTask, type StoredSource } from './task-source';

/** A per-cell column the run sees besides the h5ad's obs (subsets, earlier tasks' columns). */
export type { ExtraObsSource };

/** Child entry of `analysis.task`: one task through the engine's runTask, outputs to `outPrefix`. */
export interface TaskChildInput {
  task: string;
  h5adKey: string;
  species: string;
  params: unknown;
  /** upload field → storage key */
  uploads: Record<string, string>;
  extraObs: ExtraObsSource[];
  resourcesDir: string;
  outPrefix: string;
  /** the finished task named by `params.sourceTaskId` (definitions with `dependsOn`) */
  source?: StoredSource;
}

const main: ChildMain<TaskChildInput> = async (input, io) => {
  const definition = findTask(input.task);
  const engineTask = ENGINE_TASKS[input.task];
  if (!definition || !engineTask) throw new Error(`unknown task ${input.task}`);
  const storage = await io.storage();
  io.progress(0.01, 'inputs');
  const ds = await readStoredResult(storage, input.h5adKey);
  const extraObs: Record<string, CellColumn> = {};
  for (const s of input.extraObs) {
    const col = await extraColumn(storage, s, ds.counts.nCells);
    if (col) extraObs[s.key] = col;
  }
  const uploads: Record<string, Uint8Array> = {};
  for (const [name, key] of Object.entries(input.uploads)) uploads[name] = await storage.getBytes(key);
  const result = resultHandleFromDataset(ds, { species: input.species, extraObs });
  io.progress(0.05, 'start');
  const r = await runTask({
    definition,
    engineTask,
    result,
    params: input.params,
    writer: { write: (rel, bytes) => storage.put(`${input.outPrefix}${rel}`, bytes) },
    resources: nodeResourceReader(input.resourcesDir),
    uploads,
    source: input.source ? await storedSourceTask(storage, input.source) : undefined,
    onProgress: (p) => io.progress(0.05 + 0.9 * p.fraction, p.step),
  });
  return { tables: r.outputs.tables.length, obs: r.outputs.obs.length };
};
export default main;
