import { csvToTable } from '@cellcloud/contracts/tasks/csv';
import { taskOutputs } from '@cellcloud/contracts/tasks/define';
import type { SourceTask } from '@cellcloud/engine/tasks/kit';
import type { Storage } from '../storage/storage';

/** The published outputs of an earlier task (`dependsOn`) that a task child reads. */
export interface StoredSource {
  task: string;
  /** output prefix of the source task (`results/<resultId>/tasks/<taskId>/`) */
  prefix: string;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/**
 * Reads a finished task's outputs through its outputs.json (tables by name → CSV, data by name),
 * so e.g. enrich / gsea work on the deg-groups comparison the user already ran (issue 15).
 */
export async function storedSourceTask(storage: Storage, src: StoredSource): Promise<SourceTask> {
  const outputs = taskOutputs.parse(JSON.parse(text(await storage.getBytes(`${src.prefix}outputs.json`))));
  const summary: unknown = JSON.parse(text(await storage.getBytes(`${src.prefix}summary.json`)));
  const fileOf = (list: { name: string; file: string }[], name: string) => {
    const f = list.find((t) => t.name === name);
    if (!f) throw new Error(`the ${src.task} task has no output ${name}`);
    return `${src.prefix}${f.file}`;
  };
  return {
    name: src.task,
    summary,
    readTable: async (name) => csvToTable(text(await storage.getBytes(fileOf(outputs.tables, name)))),
    readData: (name) => storage.getBytes(fileOf(outputs.files, name)),
  };
}
