import type { TaskViewProps } from './host';
import { useTaskOutput } from './useTaskOutput';

/**
 * A task's data/<name> JSON output read with useTaskOutput: the value, the Error of the read, or
 * null while loading (or when `name` is empty: nothing is read).
 */
export function useJsonOutput<T>(
  source: Pick<TaskViewProps, 'datasetId' | 'task' | 'outputs'>,
  name: string,
): T | Error | null {
  const q = useTaskOutput<{ json: string }, T>(source, name ? { json: name } : null);
  if (q.error) return q.error;
  return q.data === undefined ? null : (q.data as T);
}
