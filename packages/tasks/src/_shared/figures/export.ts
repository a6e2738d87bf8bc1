import type { TaskTable } from '@cellcloud/contracts/tasks/csv';
import type { FigureOption } from './option';

/**
 * The figure export's view of a task (a task folder's `figures.ts` → `figures.export`): the
 * server's `figures` download reads the completed task's tables and per-cell columns, calls the
 * task's builder and renders what it returns (apps/server/src/jobs/figures/task-figures.ts).
 */
export interface TaskFigureInput {
  task: string;
  /** The task run's display name (file stems and titles). */
  name: string;
  tables: Record<string, TaskTable>;
  /** The task's per-cell numeric columns. */
  numeric: { key: string; values: ArrayLike<number> }[];
}

/** The result the task ran on: its categorical levels, `cluster` first. */
export interface FigureResult {
  levels: { key: string; labels: string[]; codes: ArrayLike<number> }[];
}

/** A figure to render: file stem inside the zip (`tasks/<stem>`), title, option and SVG size. */
export interface FigureSpec {
  name: string;
  title: string;
  option: FigureOption;
  width: number;
  height: number;
}

/** A translated label of the task's own messages (`figures.<key>` of messages/<locale>.json). */
export type FigureLabel = (key: string, params?: Record<string, string | number>) => string;

export interface TaskFigures {
  export(task: TaskFigureInput, result: FigureResult, t: FigureLabel): FigureSpec[];
}

/** File-name-safe stem of a label. */
export const stem = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';

/** Indices of the cells of each code of `level` (codes outside the labels dropped). */
export function cellsByCode(level: FigureResult['levels'][number]): number[][] {
  const out = level.labels.map(() => [] as number[]);
  for (let c = 0; c < level.codes.length; c++) out[level.codes[c]!]?.push(c);
  return out;
}

type Tree = { [k: string]: string | Tree };

/**
 * A FigureLabel over a messages tree (a task's messages/<locale>.json): dotted keys, i18next
 * `{{name}}` placeholders (the same strings the web shows).
 */
export function messageLabel(tree: Tree): FigureLabel {
  return (key, params = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') return key;
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
  };
}
