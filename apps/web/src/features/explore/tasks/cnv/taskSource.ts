import { fetchTaskFile, fetchTaskTableCsv } from '../../../../api/tasks';
import type { WebTaskViewProps } from '../types';
import { parseCsv, type CnvOutputSource } from './source';

/** The CNV / ITH views' output source over a completed task of the server (tables as CSV, data files). */
export function taskOutputSource({
  datasetId,
  task,
  outputs,
}: Pick<WebTaskViewProps, 'datasetId' | 'task' | 'outputs'>): CnvOutputSource {
  const file = (name: string) => {
    const f = outputs.outputs.files.find((x) => x.name === name);
    if (!f) throw new Error(`output ${name} is missing`);
    return fetchTaskFile(datasetId, task.id, f.file);
  };
  return {
    summary: outputs.summary,
    table: async (name) => parseCsv(await (await fetchTaskTableCsv(datasetId, task.id, name)).text()),
    data: async <T>(name: string) => JSON.parse(new TextDecoder().decode(await file(name))) as T,
    bytes: async (name) => new Uint8Array(await file(name)),
  };
}
