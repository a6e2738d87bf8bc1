import { useEffect, useState } from 'react';

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

/** RFC 4180 CSV (header row) → columns + rows; numeric-looking fields become numbers. */
export function parseCsv(text: string): TaskTableData {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [columns = [], ...body] = rows;
  const num = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
  return {
    columns,
    rows: body.map((r) =>
      r.map((v) =>
        v === '' ? null : num.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v,
      ),
    ),
  };
}
