import { annotateTask } from './annotate';
import { cellScoreTask } from './cell-score';
import { cnvTask } from './cnv';
import { ithTask } from './ith';
import { monocle2Task } from './monocle2';
import { monocle3Task } from './monocle3';
import type { TaskDefinition } from './define';

/**
 * Every downstream analysis task (issue 11). Adding a task = one import and one entry here (plus
 * the engine and web registries). Keep entries in SPEC §3 "Task types" order.
 */
export const TASKS: readonly TaskDefinition[] = [
  cellScoreTask,
  monocle2Task,
  monocle3Task,
  cnvTask,
  ithTask,
  annotateTask,
];

export function findTask(name: string): TaskDefinition | undefined {
  return TASKS.find((t) => t.name === name);
}
