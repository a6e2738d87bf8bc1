import type { UseQueryResult } from '@tanstack/react-query';
import type { TaskViewProps } from './host';
import { useTaskOutput } from './useTaskOutput';

type Source = Pick<TaskViewProps, 'datasetId' | 'task' | 'outputs'>;

/** A useTaskOutput read as the views branch on it: the value, the Error of the read, or null while loading. */
export function outputValue<T>(q: UseQueryResult<T>): T | Error | null {
  if (q.error) return q.error;
  return q.data === undefined ? null : q.data;
}

/**
 * A task's data/<name> JSON output read with useTaskOutput: the value, the Error of the read, or
 * null while loading (or when `name` is empty: nothing is read).
 */
export function useJsonOutput<T>(source: Source, name: string): T | Error | null {
  return outputValue(useTaskOutput<{ json: string }, T>(source, name ? { json: name } : null)) as
    T | Error | null;
}

/** The raw bytes of the output named `name` in the outputs manifest (e.g. `heatmap.bin`). */
export function useBytesOutput(source: Source, name: string): Uint8Array | Error | null {
  const entry = source.outputs.outputs.files.find((f) => f.name === name);
  const q = outputValue(useTaskOutput(source, entry ? { file: entry.file } : null));
  if (!entry) return new Error(`output ${name} is missing`);
  return q instanceof ArrayBuffer ? new Uint8Array(q) : q;
}
