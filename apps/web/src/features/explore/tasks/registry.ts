import { WEB_TASKS as FOLDER_VIEWS } from '@cellcloud/tasks/web';
import { InteractionTaskView } from './interaction/InteractionTaskView';
import { GsvaTaskView } from './gsva/GsvaView';
import type { WebTask } from './types';

/**
 * Result views by task name. The task folders' views come from packages/tasks (generated
 * registry); MIGRATION SHIM (issue 30): the views below are those of the tasks without a folder
 * yet. A task without a view still gets the run panel, the history and a generic table view.
 */
export const WEB_TASKS: Record<string, WebTask> = {
  ...FOLDER_VIEWS,
  interaction: { view: InteractionTaskView },
  gsva: { view: GsvaTaskView },
};
