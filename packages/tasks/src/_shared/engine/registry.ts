import type { EngineTask } from '@cellcloud/engine/tasks/kit';

/**
 * The engine registry of the generated `registry.engine.ts`: each folder's `engine`, by the
 * folder's name, which must be the name the engine object answers to.
 */
export function engineRegistry(
  folders: Record<string, EngineTask<never, unknown>>,
): Readonly<Record<string, EngineTask<never, unknown>>> {
  for (const [name, task] of Object.entries(folders))
    if (task.name !== name) throw new Error(`task folder ${name} exports the engine of "${task.name}"`);
  return folders;
}
