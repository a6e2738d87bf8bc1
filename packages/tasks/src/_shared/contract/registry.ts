import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';

export interface TaskRegistry {
  /** Every task, in `order` (the product's task-type order). */
  TASKS: readonly TaskDefinition[];
  findTask(name: string): TaskDefinition | undefined;
}

/** The registry of the generated `registry.contract.ts`: the task folders' definitions by order. */
export function taskRegistry(folders: readonly TaskDefinition[]): TaskRegistry {
  const names = new Set<string>();
  for (const d of folders) {
    if (names.has(d.name)) throw new Error(`two task definitions are named "${d.name}"`);
    names.add(d.name);
  }
  const TASKS = [...folders].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return { TASKS, findTask: (name) => TASKS.find((t) => t.name === name) };
}
