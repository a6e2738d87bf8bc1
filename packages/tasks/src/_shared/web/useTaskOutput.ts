import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { csvToTable } from '@cellcloud/contracts/tasks/csv';
import { useTaskHost } from './host';
import type { TaskViewProps } from './host';

/** A result table as the views read it (tables/<name>.csv parsed; contracts tasks/csv.ts). */
export interface TaskTableData {
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

/**
 * Which output of a task to read:
 *  - `{ table }`        the whole table (CSV parsed)
 *  - `{ table, limit }` its first `limit` rows (JSON page; ≤ 10,000)
 *  - `{ json }`         a data/<name> file as JSON (the name of the outputs manifest's `files`)
 *  - `{ file }`         raw bytes of a file path of the outputs manifest (obs/…, data/…)
 */
export type TaskOutputRef = { table: string; limit?: number } | { json: string } | { file: string };

type Source = Pick<TaskViewProps, 'datasetId' | 'task' | 'outputs'>;
type Value<R> = R extends { table: string }
  ? TaskTableData
  : R extends { file: string }
    ? ArrayBuffer
    : unknown;

/** Query key of one output (under the app's ['tasks', datasetId, taskId] keys, so deleting a task drops it). */
export function taskOutputKey(datasetId: string, taskId: string, ref: TaskOutputRef): readonly unknown[] {
  return ['tasks', datasetId, taskId, 'output', ref];
}

/**
 * THE way a task view reads its outputs (issue 30): one TanStack query per output, cached for the
 * page's life (a completed task's outputs never change). `ref: null` waits (dependent reads).
 * `T` types JSON outputs; tables and files have their own types.
 */
export function useTaskOutput<R extends TaskOutputRef, T = Value<R>>(
  source: Source,
  ref: R | null,
): UseQueryResult<R extends { json: string } ? T : Value<R>> {
  const { api } = useTaskHost();
  const { datasetId, task, outputs } = source;
  return useQuery({
    queryKey: ref ? taskOutputKey(datasetId, task.id, ref) : ['tasks', datasetId, task.id, 'output', null],
    enabled: ref !== null,
    staleTime: Infinity,
    queryFn: async (): Promise<never> => {
      if (!ref) throw new Error('no output requested');
      if ('table' in ref) {
        if (ref.limit !== undefined) {
          const page = await api.tablePage(datasetId, task.id, ref.table, ref.limit);
          return { columns: page.columns, rows: page.rows } as never;
        }
        return csvToTable(await (await api.tableCsv(datasetId, task.id, ref.table)).text()) as never;
      }
      if ('file' in ref) return (await api.file(datasetId, task.id, ref.file)) as never;
      const entry = outputs.outputs.files.find((f) => f.name === ref.json);
      if (!entry) throw new Error(`the task has no output ${ref.json}`);
      return JSON.parse(new TextDecoder().decode(await api.file(datasetId, task.id, entry.file))) as never;
    },
  });
}

/** Column index of a table by name (-1 when absent). */
export function column(t: TaskTableData, name: string): number {
  return t.columns.indexOf(name);
}
