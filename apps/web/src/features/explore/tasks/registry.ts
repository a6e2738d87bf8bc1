import { CellScoreView } from './cell-score/CellScoreView';
import { InteractionTaskView } from './interaction/InteractionTaskView';
import type { WebTask } from './types';

/**
 * Web side of every analysis task (issue 11): task name (contracts TASKS) → result view. Adding
 * a task = one import and one entry here. A task without an entry still gets the run panel,
 * the history and a generic view of its tables.
 */
export const WEB_TASKS: Record<string, WebTask> = {
  'cell-score': { view: CellScoreView },
  interaction: { view: InteractionTaskView },
};
