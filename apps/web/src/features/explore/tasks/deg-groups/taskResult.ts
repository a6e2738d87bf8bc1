import { useEffect, useState } from 'react';

/*
 * MIGRATION SHIM (issue 30): the loaders of the views not moved to packages/tasks yet (enrich,
 * gsea, gsva); the moved views read outputs with useTaskOutput of @cellcloud/tasks/web.
 */

/** A task's outputs as the enrichment views read them (tables/<name>.csv parsed, data/<name>.json). */
export interface TaskTableData {
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

export interface TaskResultSource {
  summary: unknown;
  table(name: string): Promise<TaskTableData>;
  data<T>(name: string): Promise<T>;
}

/** Loads one output (table or data) of a task; null while loading, an Error when it failed. */
export function useTaskOutput<T>(load: (() => Promise<T>) | null, deps: unknown[]): T | Error | null {
  const [value, setValue] = useState<T | Error | null>(null);
  useEffect(() => {
    if (!load) return undefined;
    let live = true;
    setValue(null);
    load().then(
      (v) => live && setValue(v),
      (e: unknown) => live && setValue(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, deps);
  return value;
}

/** Column accessor of a table by name. */
export function column(t: TaskTableData, name: string): number {
  return t.columns.indexOf(name);
}

export { fmtNumber } from '@cellcloud/tasks/web';
