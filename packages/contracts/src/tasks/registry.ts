import { annotateTask } from './annotate';
import { cellScoreTask } from './cell-score';
import { cnvTask } from './cnv';
import { ithTask } from './ith';
import type { TaskDefinition } from './define';
import { degGroupsTask } from './deg-groups';
import { enrichTask } from './enrich';
import { gseaTask } from './gsea';
import { gsvaTask } from './gsva';
import { interactionTask } from './interaction';
import { monocle2Task } from './monocle2';
import { monocle3Task } from './monocle3';
import { regulonsTask } from './regulons';
import { vdjTask } from './vdj';

/**
 * Every downstream analysis task (issue 11). Adding a task = one import and one entry here (plus
 * the engine and web registries). Keep entries in SPEC §3 "Task types" order.
 */
export const TASKS: readonly TaskDefinition[] = [
  cellScoreTask,
  degGroupsTask,
  enrichTask,
  gseaTask,
  gsvaTask,
  interactionTask,
  monocle2Task,
  monocle3Task,
  cnvTask,
  ithTask,
  regulonsTask,
  annotateTask,
  vdjTask,
];

export function findTask(name: string): TaskDefinition | undefined {
  return TASKS.find((t) => t.name === name);
}
