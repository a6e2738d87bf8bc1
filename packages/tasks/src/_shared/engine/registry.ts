import type { EngineTask } from '@cellcloud/engine/tasks/kit';
import { ENGINE_TASKS as NOT_YET_MOVED } from '@cellcloud/engine/tasks/registry';

/**
 * The engine registry of the generated `registry.engine.ts`. MIGRATION SHIM (issue 30): merged
 * with the engine's own registry of the tasks that have no folder yet; that registry loses an
 * entry each time a task gets its folder and goes when it is empty.
 */
export function engineRegistry(
  folders: Record<string, EngineTask<never, unknown>>,
): Readonly<Record<string, EngineTask<never, unknown>>> {
  for (const name of Object.keys(folders))
    if (NOT_YET_MOVED[name]) throw new Error(`task ${name} is in both the engine registry and a folder`);
  return { ...NOT_YET_MOVED, ...folders };
}
