import { useEffect, useState } from 'react';
import { csvToTable } from '@cellcloud/contracts/tasks/csv';

/** A finished task's outputs as the CNV / ITH views read them (tables parsed, data JSON or bytes). */
export interface TaskTableData {
  columns: string[];
  rows: (string | number | boolean | null)[][];
}

export interface CnvOutputSource {
  summary: unknown;
  table(name: string): Promise<TaskTableData>;
  data<T>(name: string): Promise<T>;
  bytes(name: string): Promise<Uint8Array>;
}

/** Loads one output; null while loading, an Error when it failed. */
export function useOutput<T>(load: () => Promise<T>, deps: unknown[]): T | Error | null {
  const [value, setValue] = useState<T | Error | null>(null);
  useEffect(() => {
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

/** The server's table CSV → columns + rows (shared task-table codec; "true"/"false" as booleans). */
export function parseCsv(text: string): TaskTableData {
  return csvToTable(text, { booleans: true });
}
