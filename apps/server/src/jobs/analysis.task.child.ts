import { NOT_IN_SUBSET } from '@cellcloud/contracts/explore';
import { findTask } from '@cellcloud/contracts/tasks/registry';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { ENGINE_TASKS } from '@cellcloud/engine/tasks/registry';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/result-handle';
import { runTask } from '@cellcloud/engine/tasks/run-task';
import { decodeCodes } from '@cellcloud/formats/artifacts-decode';
import type { CellColumn } from '@cellcloud/formats/matrix';
import type { Storage } from '../storage/storage';
import type { ChildMain } from './runner-child-process';
import { readStoredResult } from './runner-child-io';

/** A per-cell column the run sees besides the h5ad's obs (subsets, earlier tasks' columns). */
export type ExtraObsSource =
  | { key: string; kind: 'subset'; codesKey: string; labels: string[] }
  | { key: string; kind: 'categorical'; fileKey: string; dtype: 'u16' | 'u32'; labels: string[] }
  | { key: string; kind: 'numeric'; fileKey: string };

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
}

async function extraColumn(
  storage: Storage,
  s: ExtraObsSource,
  nCells: number,
): Promise<CellColumn | undefined> {
  const bytes = await storage.getBytes(s.kind === 'subset' ? s.codesKey : s.fileKey).catch(() => undefined);
  if (!bytes) return undefined;
  if (s.kind === 'numeric') {
    if (bytes.byteLength !== 4 * nCells) return undefined;
    const f = new Float32Array(nCells);
    new Uint8Array(f.buffer).set(bytes);
    return { kind: 'numeric', values: Float64Array.from(f) };
  }
  const codes = s.kind === 'subset' ? decodeCodes(bytes, 'u32') : decodeCodes(bytes, s.dtype);
  if (codes.length !== nCells) return undefined;
  return {
    kind: 'categorical',
    values: Array.from(codes, (c) => (c === NOT_IN_SUBSET || c >= s.labels.length ? 'NA' : s.labels[c]!)),
  };
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
    onProgress: (p) => io.progress(0.05 + 0.9 * p.fraction, p.step),
  });
  return { tables: r.outputs.tables.length, obs: r.outputs.obs.length };
};
export default main;
