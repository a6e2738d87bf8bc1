import { useMemo } from 'react';
import { csvToTable } from '@cellcloud/contracts/tasks/csv';
import { fetchTaskFile, fetchTaskTableCsv } from '../../../../api/tasks';
import type { WebTaskViewProps } from '../types';
import type { TaskResultSource, TaskTableData } from './taskResult';

/** The server's table CSV → columns + rows (the shared task-table codec). */
export function parseCsvTable(text: string): TaskTableData {
  return csvToTable(text);
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
