import { runDegTask } from '@cellcloud/engine';
import type { ChildMain } from './runner-child-process';
import { readStoredResult, readWords } from './runner-child-io';

/** Child entry of `analysis.deg`: explorer DE on a stored result, rows (JSON) to `outKey`. */
export interface DegChildInput {
  h5adKey: string;
  /** Int32 per cell: group index, -1 = not in the grouping (compare: 0 = A, 1 = B). */
  codesKey: string;
  mode: 'cluster-markers' | 'compare';
  labels: string[];
  outKey: string;
}

const main: ChildMain<DegChildInput> = async (task, io) => {
  const storage = await io.storage();
  io.progress(0.02, 'inputs');
  const ds = await readStoredResult(storage, task.h5adKey);
  const codes = await readWords(storage, task.codesKey, Int32Array);
  if (codes.length !== ds.counts.nCells)
    throw new Error(`the grouping has ${codes.length} cells, the stored result ${ds.counts.nCells}`);
  io.progress(0.2, 'deg');
  let rows;
  if (task.mode === 'cluster-markers') {
    rows = runDegTask(
      ds.counts,
      ds.genes.symbols,
      { mode: 'cluster-markers', codes, labels: task.labels },
      (f) => io.progress(0.2 + 0.7 * f, 'deg'),
    );
  } else {
    const a: number[] = [];
    const b: number[] = [];
    codes.forEach((k, c) => (k === 0 ? a.push(c) : k === 1 ? b.push(c) : undefined));
    rows = runDegTask(ds.counts, ds.genes.symbols, {
      mode: 'compare',
      groupA: a,
      groupB: b,
      names: { a: task.labels[0] ?? 'A', b: task.labels[1] ?? 'B' },
    });
  }
  io.progress(0.95, 'write');
  await storage.put(task.outKey, new TextEncoder().encode(JSON.stringify(rows)));
  return undefined;
};
export default main;
