import { cellScoreEngine } from './cell-score';
import type { EngineTask } from './types';
import { annotateEngine } from './annotate';

/**
 * Engine side of every task (issue 11): name → compute. Adding a task = one import and one
 * entry here. Keys are the contracts' task names.
 */
export const ENGINE_TASKS: Record<string, EngineTask<never, unknown>> = {
  'cell-score': cellScoreEngine as EngineTask<never, unknown>,  annotate: annotateEngine as EngineTask<never, unknown>,

};
