import { useEffect, useState } from 'react';
import { fetchTaskFile } from '../../../../api/tasks';

/** A task's data/<name> JSON file: the value, an Error, or null while loading (or when `file` is empty). */
export function useTaskJson<T>(datasetId: string, taskId: string, file: string): T | Error | null {
  const [value, setValue] = useState<T | Error | null>(null);
  useEffect(() => {
    let live = true;
    setValue(null);
    if (!file) return;
    fetchTaskFile(datasetId, taskId, file).then(
      (buf) => live && setValue(JSON.parse(new TextDecoder().decode(buf)) as T),
      (e: unknown) => live && setValue(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, [datasetId, taskId, file]);
  return value;
}
