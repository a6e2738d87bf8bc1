import { CellScoreView } from './cell-score/CellScoreView';
import { InteractionTaskView } from './interaction/InteractionTaskView';
import { DegGroupsTaskView } from './deg-groups/DegGroupsView';
import { EnrichTaskView } from './enrich/EnrichView';
import { GseaTaskView } from './gsea/GseaView';
import { GsvaTaskView } from './gsva/GsvaView';
import { CnvTaskView } from './cnv/CnvTaskView';
import { IthTaskView } from './ith/IthTaskView';
import { Monocle2View } from './trajectory/Monocle2View';
import { Monocle3View } from './trajectory/Monocle3View';
import { RegulonsView } from './regulons/RegulonsView';
import type { WebTask } from './types';
import { VdjView } from './vdj/VdjView';

/**
 * Web side of every analysis task (issue 11): task name (contracts TASKS) → result view. Adding
 * a task = one import and one entry here. A task without an entry still gets the run panel,
 * the history and a generic view of its tables.
 */
export const WEB_TASKS: Record<string, WebTask> = {
  'cell-score': { view: CellScoreView },
  interaction: { view: InteractionTaskView },
  'deg-groups': { view: DegGroupsTaskView },
  enrich: { view: EnrichTaskView },
  gsea: { view: GseaTaskView },
  gsva: { view: GsvaTaskView },
  vdj: { view: VdjView },
  cnv: { view: CnvTaskView },
  ith: { view: IthTaskView },
  monocle2: { view: Monocle2View },
  monocle3: { view: Monocle3View },
  regulons: { view: RegulonsView },
};
