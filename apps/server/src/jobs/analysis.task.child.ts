import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { findTask } from '@cellcloud/tasks/contract';
import { ENGINE_TASKS } from '@cellcloud/tasks/engine';
import { analysisRecordFromQc, resultHandleFromDataset, runTask } from '@cellcloud/engine/tasks/kit';
import type { ExtraObsSource } from './extra-obs';
import type { ChildMain } from './runner-child-process';
import { readTaskResult, type TaskSampleOptions } from './task-sample';
import { storedSourceTask, type StoredSource } from './task-source';

/** A per-cell column the run sees besides the h5ad's obs (subsets, earlier tasks' columns). */
export type { ExtraObsSource };

/** Child entry of `analysis.task`: one task through the engine's runTask, outputs to `outPrefix`. */
export interface TaskChildInput {
  task: string;
  h5adKey: string;
  /** The result's `artifacts/qc.json` (the representation the analysis' graph used), when stored. */
  qcKey?: string;
  species: string;
  params: unknown;
  /** upload field → storage key */
  uploads: Record<string, string>;
  extraObs: ExtraObsSource[];
  resourcesDir: string;
  outPrefix: string;
  /** the finished task named by `params.sourceTaskId` (definitions with `dependsOn`) */
  source?: StoredSource;
  /** The sample's threshold and size (tests lower them; else task-sample.ts's constants). */
  sample?: TaskSampleOptions;
}

const main: ChildMain<TaskChildInput> = async (input, io) => {
  const definition = findTask(input.task);
  const engineTask = ENGINE_TASKS[input.task];
  if (!definition || !engineTask) throw new Error(`unknown task ${input.task}`);
  const storage = await io.storage();
  io.progress(0.01, 'inputs');
  // read by positional reads; from a cell count on, a stratified sample of the cells (task-sample.ts)
  const { ds, extraObs, sample, matrixFree } = await readTaskResult(
    storage,
    input.h5adKey,
    input.task,
    input.params,
    input.extraObs,
    input.sample,
  );
  if (sample)
    console.log(
      `[task ${input.task}] ${sample.cells.length} of ${sample.nCells} cells sampled` +
        ` (stratified by ${String(sample.describe.stratifiedBy)}); per-cell outputs cover the sampled cells only`,
    );
  const uploads: Record<string, Uint8Array> = {};
  for (const [name, key] of Object.entries(input.uploads)) uploads[name] = await storage.getBytes(key);
  const qc =
    input.qcKey && (await storage.stat(input.qcKey))
      ? new TextDecoder().decode(await storage.getBytes(input.qcKey))
      : undefined;
  const analysis = analysisRecordFromQc(qc);
  const handle = resultHandleFromDataset(ds, {
    species: input.species,
    extraObs,
    ...(analysis ? { analysis } : {}),
  });
  const noMatrix = () => {
    throw new Error(`task ${input.task} is declared matrix-free (task-sample.ts) but read the matrix`);
  };
  const result = matrixFree ? { ...handle, counts: noMatrix, normalized: noMatrix } : handle;
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
    ...(sample ? { sample } : {}),
  });
  return {
    tables: r.outputs.tables.length,
    obs: r.outputs.obs.length,
    ...(sample ? { sampledCells: sample.cells.length } : {}),
  };
};
export default main;
