import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { annotateTask } from '@cellcloud/contracts/tasks/annotate';
import { gsvaTask } from '@cellcloud/contracts/tasks/gsva';
import { interactionTask } from '@cellcloud/contracts/tasks/interaction';

/**
 * MIGRATION SHIM (issue 30): the definitions still in packages/contracts/src/tasks, in the
 * product's task-type order, merged with the task folders' definitions until every task has its
 * folder. A task leaves this list when its folder is created.
 */
const NOT_YET_MOVED: readonly TaskDefinition[] = [gsvaTask, interactionTask, annotateTask];

export interface TaskRegistry {
  /** Every task, in `order` (the product's task-type order). */
  TASKS: readonly TaskDefinition[];
  findTask(name: string): TaskDefinition | undefined;
}

/** The registry of the generated `registry.contract.ts`: the task folders' definitions by order. */
export function taskRegistry(folders: readonly TaskDefinition[]): TaskRegistry {
  const legacy = NOT_YET_MOVED;
  const names = new Set<string>();
  for (const d of [...folders, ...legacy]) {
    if (names.has(d.name)) throw new Error(`two task definitions are named "${d.name}"`);
    names.add(d.name);
  }
  const TASKS = [...folders, ...legacy].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return { TASKS, findTask: (name) => TASKS.find((t) => t.name === name) };
}
