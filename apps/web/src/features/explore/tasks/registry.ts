import { CellScoreView } from './cell-score/CellScoreView';
import { DegGroupsTaskView } from './deg-groups/DegGroupsView';
import { EnrichTaskView } from './enrich/EnrichView';
import { GseaTaskView } from './gsea/GseaView';
import { GsvaTaskView } from './gsva/GsvaView';
import type { WebTask } from './types';

/**
 * Web side of every analysis task (issue 11): task name (contracts TASKS) → result view. Adding
 * a task = one import and one entry here. A task without an entry still gets the run panel,
 * the history and a generic view of its tables.
 */
export const WEB_TASKS: Record<string, WebTask> = {
  'cell-score': { view: CellScoreView },
  'deg-groups': { view: DegGroupsTaskView },
  enrich: { view: EnrichTaskView },
  gsea: { view: GseaTaskView },
  gsva: { view: GsvaTaskView },
};
