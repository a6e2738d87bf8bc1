import type { EngineTask } from './types';
import { gsvaTask } from './gsva';
import { annotateEngine } from './annotate';
import { interactionEngineTask } from './interaction';

/**
 * MIGRATION SHIM (issue 30): the compute of the tasks that have no folder in packages/tasks yet
 * (name → EngineTask). packages/tasks' generated engine registry merges it; a task leaves this
 * list when it moves to its folder, and the file goes when the list is empty.
 */
export const ENGINE_TASKS: Record<string, EngineTask<never, unknown>> = {
  gsva: gsvaTask as EngineTask<never, unknown>,
  annotate: annotateEngine as EngineTask<never, unknown>,
  interaction: interactionEngineTask as EngineTask<never, unknown>,
};
