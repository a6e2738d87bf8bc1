import type { CellColumn } from '@cellcloud/formats/matrix';
import type { TaskSink, TaskTable } from './types';

/** A TaskSink that keeps everything in memory (tests, and the runner before it encodes files). */
export class MemorySink implements TaskSink {
  readonly tables = new Map<string, TaskTable>();
  readonly cells = new Map<string, CellColumn>();
  readonly datas = new Map<string, unknown>();

  async table(name: string, table: TaskTable): Promise<void> {
    for (const r of table.rows) {
      if (r.length !== table.columns.length) {
        throw new Error(`table ${name}: a row has ${r.length} values for ${table.columns.length} columns`);
      }
    }
    this.tables.set(name, table);
  }

  async cellColumn(key: string, column: CellColumn): Promise<void> {
    this.cells.set(key, column);
  }

  async data(name: string, value: unknown): Promise<void> {
    this.datas.set(name, value);
  }
}
