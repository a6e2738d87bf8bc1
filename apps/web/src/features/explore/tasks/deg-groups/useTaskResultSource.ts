import { useMemo } from 'react';
import { fetchTaskFile, fetchTaskTableCsv } from '../../../../api/tasks';
import type { WebTaskViewProps } from '../types';
import type { TaskResultSource, TaskTableData } from './taskResult';

/** RFC 4180 CSV (the server's table export) → columns + rows, numeric-looking fields as numbers. */
export function parseCsvTable(text: string): TaskTableData {
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
  const [header = [], ...body] = rows;
  const num = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
  const value = (v: string) =>
    v === '' ? null : num.test(v) ? Number(v) : v === 'Inf' ? Infinity : v === '-Inf' ? -Infinity : v;
  return { columns: header.map((h) => h.replace(/^\uFEFF/, '')), rows: body.map((r) => r.map(value)) };
}

/** The enrichment views' TaskResultSource over a completed task of the generic task tab. */
export function useTaskResultSource({ datasetId, task, outputs }: WebTaskViewProps): TaskResultSource {
  return useMemo<TaskResultSource>(
    () => ({
      summary: outputs.summary,
      table: async (name) => parseCsvTable(await (await fetchTaskTableCsv(datasetId, task.id, name)).text()),
      data: async <T>(name: string) => {
        const entry = outputs.outputs.files.find((f) => f.name === name);
        if (!entry) throw new Error(`no output ${name}`);
        return JSON.parse(new TextDecoder().decode(await fetchTaskFile(datasetId, task.id, entry.file))) as T;
      },
    }),
    [datasetId, task.id, outputs],
  );
}
