import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { TaskTable } from '@cellcloud/contracts/tasks/csv';

/** What the figure builders draw from (read from storage by figures/read.ts). */
export interface Level {
  key: string;
  labels: string[];
  codes: ArrayLike<number>;
}
export interface Numeric {
  key: string;
  values: ArrayLike<number>;
}
export interface FigureData {
  nCells: number;
  /** 2-D embeddings (umap, tsne, …), row-major x, y. */
  embeddings: { name: string; values: Float32Array }[];
  /** Categorical levels a figure can colour or group by: `cluster` first. */
  levels: Level[];
  numeric: Numeric[];
  /** The sample level (`Sample ID`), when the result has one. */
  sample: Level | undefined;
  markers: { groupBy: string; rows: DegRow[] }[];
  /** Saved explorer DE results (compare mode: a volcano each). */
  de: { name: string; rows: DegRow[] }[];
  tasks: { task: string; name: string; tables: Record<string, TaskTable>; numeric: Numeric[] }[];
}

/** Indices of the cells of each code of a level (shared with the task folders' figure builders). */
export { cellsByCode } from '@cellcloud/tasks/figures';

/** Columns of a task table as numbers / text (shared with the task folders' figure builders). */
export { numberColumn, textColumn } from '@cellcloud/tasks/figures';
